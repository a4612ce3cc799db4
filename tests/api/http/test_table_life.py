"""Table life over HTTP: two real API servers (one gunicorn process each) over one Redis.

Presence seen across the two processes, a rejoin from a "second device" revoking the first token (and ending its
stream), quick messages on the stream and the seat's 429, and a rematch of two people and two computers whose
kept seat goes to a computer when the wait ends — the deadline kept in the store: server A, where the rematch is
asked for, runs no AI sweeper; B's ends the wait.  The rules are unit-tested on the memory store
(tests/api/games/test_rejoin.py, test_rematch.py, test_messages.py, tests/api/live/test_presence.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.conftest import run_gunicorn

from ..contract import ContractSession
from ..helpers import auth, create_game, wait_until
from ..sse import messages, open_stream

pytestmark = pytest.mark.integration

ENV = {
    "RATE_LIMIT_ENABLED": "1",  # the rejoin limit; the rest far out of the way
    "RATE_LIMIT_PER_ADDRESS": "100000/minute",
    "RATE_LIMIT_PER_TOKEN": "100000/minute",
    "CREATE_RATE_LIMIT": "",
    "MAX_GAMES_IN_PLAY": "0",
    "MAX_COMPUTER_GAMES": "0",
    "REJOIN_RATE_LIMIT": "3/minute",
    "PRESENCE_LEASE_SECONDS": "1.5",  # a lease renewed every 0.5 s: a closed stream is gone within ~2 s
    "STREAM_HEARTBEAT_SECONDS": "0.5",
    "STREAM_MAX_SECONDS": "30",  # a stream that should have ended fails the test instead of hanging it
    "REMATCH_WAIT_SECONDS": "2",
}
FOUR = [{"type": "human"}] * 4


@pytest.fixture(scope="module")
def servers(redis_db1) -> Iterator[tuple[str, str]]:
    """Servers A (no AI driver: no sweeper) and B, one process each, over the tests' Redis."""
    with run_gunicorn({**ENV, "AI_ENABLED": "0"}, workers=1) as a, run_gunicorn(ENV, workers=1) as b:
        yield a, b


def table_frames(stream: requests.Response) -> Iterator[tuple[str, Any]]:
    """The stream's presence and message frames, as (kind, data); its events as ("event", type)."""
    for message in messages(stream):
        if message.event in ("presence", "message"):
            assert message.id is None or message.id == "", "a table frame carries no id"
            yield message.event, message.json()
        elif message.event is not None:
            yield "event", message.event


def next_presence(frames: Iterator[tuple[str, Any]]) -> list[bool]:
    return next(data["seats"] for kind, data in frames if kind == "presence")


def test_presence_is_shared_by_two_api_processes_and_pushed_to_streams(servers):
    a, b = servers
    created = create_game(ContractSession(a), seats=FOUR)
    game_id, token = created["game_id"], created["seats"][2]["token"]
    watcher = open_stream(a, game_id)  # a spectator on A
    frames = table_frames(watcher)
    assert next_presence(frames) == [False] * 4, "every stream starts with who is at the table"
    seat = open_stream(b, game_id, token)  # seat 2's page, on B
    assert next_presence(frames) == [False, False, True, False]
    view = ContractSession(a).get(f"/v1/games/{game_id}").json()
    assert [s["connected"] for s in view["seats"]] == [False, False, True, False]
    seat.close()  # the page closed without a word: its lease lapses, A's spectator stream tells it
    assert next_presence(frames) == [False] * 4
    watcher.close()


def test_a_rejoin_from_a_second_device_revokes_the_first_token_and_ends_its_stream(servers):
    a, b = servers
    session_a, session_b = ContractSession(a), ContractSession(b)
    created = create_game(session_a, seats=FOUR)
    game_id, token = created["game_id"], created["seats"][0]["token"]
    code = session_a.post(f"/v1/games/{game_id}/seats/0/rejoin-code", headers=auth(token)).json()["code"]
    first_device = open_stream(a, game_id, token, after=created["state"]["last_seq"])
    frames = table_frames(first_device)
    next_presence(frames)  # open, and connected
    seated = session_b.post(f"/v1/games/{game_id}/rejoin", json={"code": code})
    assert seated.status_code == 200 and seated.json()["seat"] == 0 and seated.json()["state"]["you"] == 0
    rest = list(messages(first_device))  # to the stream's end: with a 0.5 s heartbeat, an open one sends keep-alives
    assert [m.event for m in rest if m.event] == ["seat_rejoined"] and rest[-1].event == "seat_rejoined"
    assert session_a.get(f"/v1/games/{game_id}", headers=auth(token)).status_code == 401
    assert session_b.get(f"/v1/games/{game_id}", headers=auth(seated.json()["token"])).json()["you"] == 0
    refused = [session_b.post(f"/v1/games/{game_id}/rejoin", json={"code": code}) for _ in range(4)]
    assert [r.status_code for r in refused] == [403, 403, 403, 429], "used once; refusals are rate-limited"
    assert refused[0].json()["code"] == "invalid_rejoin_code" and refused[3].json()["code"] == "rejoin_rate_limited"


def test_quick_messages_reach_the_streams_of_another_process_and_a_seat_is_limited(servers):
    a, b = servers
    created = create_game(ContractSession(a), seats=FOUR)
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    frames = table_frames(open_stream(a, game_id, tokens[1]))
    next_presence(frames)
    posted = ContractSession(b).post(
        f"/v1/games/{game_id}/messages", json={"code": "good_game"}, headers=auth(tokens[0])
    )
    assert posted.status_code == 200 and posted.json()["seat"] == 0
    assert next(data for kind, data in frames if kind == "message") == posted.json()
    again = ContractSession(b).post(f"/v1/games/{game_id}/messages", json={"code": "wow"}, headers=auth(tokens[0]))
    assert again.status_code == 429 and again.json()["code"] == "too_many_messages"
    assert int(again.headers["Retry-After"]) >= 1
    assert ContractSession(a).get(f"/v1/games/{game_id}").json()["messages"] == [posted.json()]


def play_to_the_end(session: ContractSession, game_id: str, tokens: list[str]) -> None:
    """The two people (seats 0 and 1) play their first legal move on their turns; the computers play theirs."""
    for _ in range(1000):
        view = session.get(f"/v1/games/{game_id}", headers=auth(tokens[0])).json()
        if view["phase"] == "game_over":
            return
        if view["turn"] in (0, 1):
            mine = session.get(f"/v1/games/{game_id}", headers=auth(tokens[view["turn"]])).json()
            kind, body = (
                ("bids", {"bid": mine["legal"][0]})
                if mine["phase"] == "bidding"
                else ("plays", {"card": mine["legal"][0]})
            )
            session.post(f"/v1/games/{game_id}/{kind}", json=body, headers=auth(tokens[view["turn"]]))
        else:  # a computer's turn: wait for its move
            session.get(f"/v1/games/{game_id}/events", params={"after": view["last_seq"], "wait": 5})
    raise AssertionError("the game did not end")


def test_a_rematch_of_two_people_and_two_computers_keeps_a_seat_until_the_wait_ends(servers, ai_worker):
    a, b = servers
    session_a, session_b = ContractSession(a), ContractSession(b)
    rules = {"preset": "partnership", "win_score": 1, "lose_score": 0}  # over after a round
    seats = [{"type": "human"}, {"type": "human"}, {"type": "ai", "level": "basic"}, {"type": "ai", "level": "basic"}]
    created = create_game(session_b, rules=rules, seats=seats)
    old_id, tokens = created["game_id"], [s.get("token") for s in created["seats"]]
    play_to_the_end(session_b, old_id, tokens)
    seated = session_a.post(f"/v1/games/{old_id}/rematch", headers=auth(tokens[0]))  # on A: no sweeper there
    assert seated.status_code == 200, seated.text
    next_id, state = seated.json()["game_id"], seated.json()["state"]
    assert state["phase"] == "waiting" and state["reserved"]["seats"] == [1]
    assert [s["type"] for s in state["seats"]] == ["human", "open", "ai", "ai"]
    assert session_b.get(f"/v1/games/{old_id}").json()["rematch"] == {"game_id": next_id, "seat": 0}
    assert session_b.post(f"/v1/games/{next_id}/seats/1/claim").json()["code"] == "seat_reserved"

    def seat_1_went_to_a_computer() -> bool:
        return session_b.get(f"/v1/games/{next_id}").json()["seats"][1]["type"] == "ai"

    wait_until(seat_1_went_to_a_computer, "B's sweeper never ended the wait", bound=30)
    late = session_b.post(f"/v1/games/{old_id}/rematch", headers=auth(tokens[1]))
    assert late.status_code == 200 and late.json()["game_id"] == next_id and late.json()["seat"] == 1
    kinds = [e["type"] for e in session_b.get(f"/v1/games/{next_id}/events").json()["events"]]
    assert kinds[:3] == ["game_created", "reservation_ended", "round_started"] and "seat_claimed" in kinds
