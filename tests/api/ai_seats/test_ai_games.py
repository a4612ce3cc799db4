"""Computer players in live games: real gunicorn, real Redis, a real Celery worker.

The API hands each AI turn to the worker by task name and applies the
decision from the task result; these tests only talk HTTP, like a client.
"""

from __future__ import annotations

import random
import time

import pytest

from services.computers import LEVEL_NAMES
from testkit.http_clients import EventFollower, replay_events

from ..contract import ContractSession
from ..helpers import ai_results, auth, wait_until

pytestmark = pytest.mark.integration  # real Redis / gunicorn / Celery processes

SHORT = {"preset": "partnership", "win_score": 120, "lose_score": -120}


@pytest.fixture
def session(api_server, ai_worker):
    return ContractSession(api_server)


def follow_events(session, game_id, token=None, after=0, until="game_over", timeout=240.0):
    """Long-poll the event log until an event of type ``until``; returns all events seen."""
    headers = auth(token) if token else {}
    events, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        page = session.get(f"/v1/games/{game_id}/events", params={"after": after, "wait": 10}, headers=headers)
        assert page.status_code == 200
        for event in page.json()["events"]:
            assert event["seq"] == after + 1, "events arrive in order, none missing or repeated"
            after = event["seq"]
            events.append(event)
            if event["type"] == until:
                return events
    raise AssertionError(f"no {until} event within {timeout} s; last: {events[-1:]}")


def test_one_human_against_three_pro_seats_to_game_over(session):
    seats = [{"type": "human"}] + [{"type": "ai", "level": "pro"}] * 3
    created = session.post("/v1/games", json={"rules": SHORT, "seats": seats, "seed": 2024}).json()
    game_id, token = created["game_id"], created["seats"][0]["token"]
    follower = EventFollower(session.base_url, game_id)  # the log keeps only the last rounds: read as it goes
    follower.start()
    rng, after, human_moves = random.Random(1), 0, 0
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        mine = session.get(f"/v1/games/{game_id}", headers=auth(token)).json()
        if mine["phase"] == "game_over":
            break
        if mine["turn"] == 0:
            assert mine["legal"], "the human's turn always offers legal moves"
            if mine["phase"] == "bidding":
                response = session.post(
                    f"/v1/games/{game_id}/bids", json={"bid": rng.choice(mine["legal"])}, headers=auth(token)
                )
            else:
                response = session.post(
                    f"/v1/games/{game_id}/plays", json={"card": rng.choice(mine["legal"])}, headers=auth(token)
                )
            assert response.status_code == 200, response.text
            human_moves += 1
            continue
        assert mine["legal"] == []
        page = session.get(f"/v1/games/{game_id}/events", params={"after": after, "wait": 10}, headers=auth(token))
        if page.json()["events"]:
            after = page.json()["events"][-1]["seq"]
    else:
        raise AssertionError("the game did not finish")
    events = follower.finish()
    final = replay_events(SHORT, 2024, events)
    assert final.phase == "game_over" and list(final.winner) == mine["winner"]
    ai_moves = [e for e in events if e["type"] in ("bid", "card_played") and e["data"]["seat"] != 0]
    assert len(ai_moves) == 3 * human_moves  # the AI seats moved exactly as often as the human, no more
    assert mine["scores"] == list(final.scores)


def test_four_computer_players_finish_while_a_client_long_polls(session):
    seats = [{"type": "ai", "level": lvl} for lvl in ("easy", "standard", "pro", "standard")]
    rules = {"preset": "individual", "win_score": 100}
    created = session.post("/v1/games", json={"rules": rules, "seats": seats, "seed": 77})
    assert created.status_code == 201
    game_id = created.json()["game_id"]
    events = follow_events(session, game_id)
    final = replay_events(rules, 77, events)
    assert final.phase == "game_over"
    rounds = len(final.history)
    assert sum(e["type"] == "bid" for e in events) == 4 * rounds
    assert sum(e["type"] == "card_played" for e in events) == 52 * rounds
    versions = [e["version"] for e in events if e["type"] in ("bid", "card_played")]
    assert versions == sorted(set(versions)), "each move is its own version, applied once"


def test_a_computer_takes_over_a_left_seat_and_hands_it_back(session):
    created = session.post(
        "/v1/games",
        json={"rules": SHORT, "seats": [{"type": "human"}] * 4, "seed": 5, "options": {"ai_takeover": "easy"}},
    ).json()
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    left = session.post(f"/v1/games/{game_id}/seats/1/leave", headers=auth(tokens[1]))  # seat 1 bids first
    assert left.status_code == 200
    seat = left.json()["seats"][1]
    assert seat == {
        "seat": 1,
        "type": "ai",
        "level": "easy",
        "claimable": True,
        "player": {"id": "computer-easy", "name": "easy", "kind": "computer"},
    }
    events = follow_events(session, game_id, until="bid")
    assert events[-1]["data"]["seat"] == 1  # the stand-in bid for the seat without being asked
    claimed = session.post(f"/v1/games/{game_id}/seats/1/claim")
    assert claimed.status_code == 200
    view = session.get(f"/v1/games/{game_id}", headers=auth(claimed.json()["token"])).json()
    assert view["you"] == 1 and view["seats"][1] == {
        "seat": 1,
        "type": "human",
        "level": None,
        "claimable": False,
        "player": None,  # claimed without a player token
        "connected": False,
    }


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_each_level_bids_and_plays_through_the_workers(session, level):
    """Seats 1 to 3 of ``level`` bid, the human in seat 0 (the dealer, last to bid)
    bids, and they play the first trick's first three cards; then it is the
    human's turn, so the game waits and costs no more worker time."""
    seats = [{"type": "human"}] + [{"type": "ai", "level": level}] * 3
    created = session.post("/v1/games", json={"rules": SHORT, "seats": seats, "seed": 60}).json()
    game_id, token = created["game_id"], created["seats"][0]["token"]
    bids = follow_events_of(session, game_id, "bid", 3)
    assert [e["data"]["seat"] for e in bids] == [1, 2, 3]
    mine = session.get(f"/v1/games/{game_id}", headers=auth(token)).json()
    assert mine["turn"] == 0 and mine["phase"] == "bidding"
    bid = session.post(f"/v1/games/{game_id}/bids", json={"bid": mine["legal"][-1]}, headers=auth(token))
    assert bid.status_code == 200, bid.text
    cards = follow_events_of(session, game_id, "card_played", 3)
    assert [e["data"]["seat"] for e in cards] == [1, 2, 3]
    view = session.get(f"/v1/games/{game_id}", headers=auth(token)).json()
    assert view["turn"] == 0 and view["version"] == bid.json()["version"] + 3


def follow_events_of(session, game_id, kind, count, timeout=60.0):
    """The first ``count`` events of type ``kind`` (long-polling until they are there)."""
    found, after = [], 0
    while len(found) < count:
        events = follow_events(session, game_id, after=after, until=kind, timeout=timeout)
        after = events[-1]["seq"]
        found.append(events[-1])
    return found


#: Settings of API processes whose every decision comes back through their result listener: no sweep (the sweep of
#: every API process on the tests' shared database recovers the overdue turns of every game there, other tests'
#: running clocks included, and applies a stored result its listener has not applied yet), and no turn of theirs due
#: within a test (so no other process's sweep sends one again).  A result their listener misses stalls its game.
LISTENER_ONLY = {
    "AI_DECISION_DEADLINE_SECONDS": "600",
    "AI_SWEEP_INTERVAL_SECONDS": "600",
    "CLOCK_SWEEP_INTERVAL_SECONDS": "600",
    "CLOCK_OUTAGE_SECONDS": "0",  # its heartbeat beats at its sweeps: off (no game here has a clock)
}


def test_each_api_process_receives_only_the_results_of_the_tasks_it_sent(gunicorn_factory, ai_worker):
    """Two API processes on one Redis and one worker: each subscribes to its own tasks' result channels
    only, so it receives exactly one result per task it sent and none of the other's (with the old
    ``celery-task-meta-*`` pattern each would also have received all of the other's, as ``unclaimed``).
    Their sweeps are off (:data:`LISTENER_ONLY`): each process sends exactly its game's turns, and what it counts
    does not depend on how late a loaded machine answers (a sweep's re-sends, results it takes from the store)."""
    one_round = {"preset": "partnership", "win_score": 1, "lose_score": -1}
    bases = [
        gunicorn_factory(LISTENER_ONLY, workers=1),
        gunicorn_factory({**LISTENER_ONLY, "API_WORKER_CLASS": "gthread"}, workers=1),
    ]
    games = []
    for seed, base in enumerate(bases, start=31):
        created = ContractSession(base).post(
            "/v1/games", json={"rules": one_round, "seats": [{"type": "ai", "level": "basic"}] * 4, "seed": seed}
        )
        assert created.status_code == 201
        games.append((base, created.json()["game_id"]))
    moves = []
    for base, game_id in games:
        events = follow_events(ContractSession(base), game_id, timeout=120)
        moves.append(sum(event["type"] in ("bid", "card_played") for event in events))
        assert sum(event["type"] == "card_played" for event in events) == 52
    for base, made in zip(bases, moves, strict=True):
        wait_until(lambda base=base: ai_results(base)["subscriptions"] == 0, "result subscriptions left over", 30)
        figures = ai_results(base)
        assert figures["sent"] == made, "each bid and card of its game was a decision this process sent, once"
        assert figures["decision"] == figures["sent"], "one result received per task sent, none missed"
        assert figures["unclaimed"] == 0, "no result of the other process's tasks"


def test_computer_players_of_every_kind_finish_a_house_rules_game(session):
    """Blind decisions (looks, hard's blind bids), suicide nils and the nil exchange: the API reads
    every kind of computer move the worker returns (look, blind bid, pass, a joker's card)."""
    rules = {
        "preset": "house", "win_score": 150, "lose_score": -150, "blind_margin": 0, "suicide": True,
        "mercy_margin": None,
    }  # fmt: skip
    seats = [{"type": "ai", "level": lvl} for lvl in ("hard", "normal", "standard", "basic")]
    created = session.post("/v1/games", json={"rules": rules, "seats": seats, "seed": 5})
    assert created.status_code == 201, created.text
    events = follow_events(session, created.json()["game_id"])
    kinds = {e["type"] for e in events}
    assert {"hand_shown", "cards_passed", "exchange_done", "game_over"} <= kinds
    rounds = sum(e["type"] == "round_scored" for e in events)
    assert sum(e["type"] == "card_played" for e in events) == 52 * rounds
