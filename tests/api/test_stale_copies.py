"""Moves start from a process's latest copy of a game (one Redis round trip
instead of two).  Two app instances on one Redis play the part of two API
processes: whatever one does, the other's stale copy never yields a wrong
answer or a lost move."""

from __future__ import annotations

import json

import pytest

from services.api.app import create_app
from services.api.store import stored_state
from services.engine import Bid, Play, apply, legal_moves, make_rules, parse_card, to_json, turn
from services.engine import new_game as engine_new_game
from services.engine.cards import card_code
from tests.conftest import API_TEST_DB, redis_url

from .helpers import auth

pytestmark = pytest.mark.integration  # real Redis / gunicorn / Celery processes

CONFIG = {
    "REDIS_URL": redis_url(API_TEST_DB),
    "AI_ENABLED": False,
    "RATE_LIMIT_ENABLED": False,
    "LOG_LEVEL": "WARNING",
}


@pytest.fixture
def two_processes(redis_db1):
    return create_app(dict(CONFIG)).test_client(), create_app(dict(CONFIG)).test_client()


def new_game(client, seats=None):
    body = {"rules": {"preset": "partnership"}, "seats": seats or [{"type": "human"}] * 4, "seed": 12}
    created = client.post("/v1/games", json=body).get_json()
    return created["game_id"], [s.get("token") for s in created["seats"]]


def test_a_move_another_process_already_made_is_refused_not_repeated(two_processes, redis_db1):
    a, b = two_processes
    game_id, tokens = new_game(a)  # a's copy: version 1, seat 1 to bid
    assert b.post(f"/v1/games/{game_id}/bids", json={"bid": 3}, headers=auth(tokens[1])).status_code == 200
    again = a.post(f"/v1/games/{game_id}/bids", json={"bid": 3}, headers=auth(tokens[1]))
    assert again.status_code == 409 and again.get_json()["code"] == "not_your_turn"
    state = stored_state(redis_db1, game_id)
    assert state.bids == (None, 3, None, None)
    assert int(redis_db1.hget(f"game:{{{game_id}}}", "v")) == 2


def test_a_stale_copy_does_not_refuse_a_legal_move(two_processes):
    a, b = two_processes
    game_id, tokens = new_game(a)
    assert b.post(f"/v1/games/{game_id}/bids", json={"bid": 3}, headers=auth(tokens[1])).status_code == 200
    # a's copy still says seat 1 is to bid, but seat 2's bid is legal now.
    response = a.post(f"/v1/games/{game_id}/bids", json={"bid": 2}, headers=auth(tokens[2]))
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["bids"] == [None, 3, 2, None] and response.get_json()["version"] == 3
    pinned = a.post(f"/v1/games/{game_id}/bids", json={"bid": 4}, headers={**auth(tokens[3]), "If-Match": '"3"'})
    assert pinned.status_code == 200


def test_a_token_claimed_elsewhere_works_at_once(two_processes):
    a, b = two_processes
    game_id, tokens = new_game(a, seats=[{"type": "human"}] * 3 + [{"type": "open"}])
    claimed = b.post(f"/v1/games/{game_id}/seats/3/claim").get_json()
    # a's copy has seat 3 open and does not know the new token: it must not say 401.
    assert a.post(f"/v1/games/{game_id}/bids", json={"bid": 3}, headers=auth(tokens[1])).status_code == 200
    view = a.get(f"/v1/games/{game_id}", headers=auth(claimed["token"]))
    assert view.status_code == 200 and view.get_json()["you"] == 3


def test_a_left_seats_token_is_refused_even_by_a_process_that_saw_it_valid(two_processes):
    a, b = two_processes
    game_id, tokens = new_game(a)
    assert b.post(f"/v1/games/{game_id}/seats/1/leave", headers=auth(tokens[1])).status_code == 200
    refused = a.post(f"/v1/games/{game_id}/bids", json={"bid": 3}, headers=auth(tokens[1]))
    assert refused.status_code == 401


def _move_body(state, seat) -> tuple[str, dict]:
    move = legal_moves(state, seat)[-1]
    if isinstance(move, Bid):
        return "bids", {"bid": min(move.tricks, 4)}
    return "plays", {"card": card_code(move.card)}


def test_two_processes_taking_turns_store_every_round_exactly(two_processes, redis_db1):
    # A move rewrites the finished rounds only when they changed since the copy it
    # started from; with two processes each holding stale copies, what Redis holds
    # must still be the whole game after every move, across round ends.
    clients = two_processes
    game_id, tokens = new_game(clients[0])
    state = engine_new_game(make_rules("partnership"), 12)
    moves = 0
    while len(state.history) < 2:
        seat = turn(state)
        kind, body = _move_body(state, seat)
        response = clients[moves % 3 % 2].post(f"/v1/games/{game_id}/{kind}", json=body, headers=auth(tokens[seat]))
        assert response.status_code == 200, response.get_json()
        state = apply(state, seat, Bid(body["bid"]) if kind == "bids" else Play(parse_card(body["card"])))
        assert stored_state(redis_db1, game_id) == state
        moves += 1


def test_a_game_stored_in_the_older_one_text_layout_is_read_and_played_on(two_processes, redis_db1):
    a, _ = two_processes
    game_id, tokens = new_game(a)
    state = engine_new_game(make_rules("partnership"), 12)
    while not state.history:  # into round 2, so there is a finished round to carry over
        seat = turn(state)
        state = apply(state, seat, legal_moves(state, seat)[0])
    key = f"game:{{{game_id}}}"
    redis_db1.hset(key, "state", to_json(state))  # the whole game in one text, as before "rounds"
    redis_db1.hdel(key, "rounds")
    fresh = create_app(dict(CONFIG)).test_client()  # no copy of its own: reads the old layout
    seat = turn(state)
    view = fresh.get(f"/v1/games/{game_id}", headers=auth(tokens[seat])).get_json()
    assert view["round"] == 2 and len(view["history"]) == 1 and view["legal"]
    assert fresh.post(f"/v1/games/{game_id}/bids", json={"bid": 3}, headers=auth(tokens[seat])).status_code == 200
    assert stored_state(redis_db1, game_id) == apply(state, seat, Bid(3))
    assert len(json.loads(redis_db1.hget(key, "rounds"))) == 1


def test_a_move_after_redis_lost_its_scripts_still_commits(two_processes, redis_db1):
    a, _ = two_processes
    game_id, tokens = new_game(a)
    redis_db1.script_flush()  # as after a restart: the commit script must be loaded again
    assert a.post(f"/v1/games/{game_id}/bids", json={"bid": 3}, headers=auth(tokens[1])).status_code == 200
    assert stored_state(redis_db1, game_id).bids == (None, 3, None, None)


def test_a_whole_game_written_by_an_older_process_wins_over_stale_rounds(two_processes, redis_db1):
    # A rolling upgrade: a newer process stored the rounds apart, then an older one
    # wrote the whole game into `state` (leaving `rounds` as it was).
    a, _ = two_processes
    game_id, tokens = new_game(a)
    state = engine_new_game(make_rules("partnership"), 12)
    while len(state.history) < 2:
        seat = turn(state)
        state = apply(state, seat, legal_moves(state, seat)[0])
    key = f"game:{{{game_id}}}"
    redis_db1.hset(
        key, mapping={"state": to_json(state), "rounds": json.dumps([[0, 0, 0, 0]])}
    )  # stale, even malformed
    assert stored_state(redis_db1, game_id) == state
    fresh = create_app(dict(CONFIG)).test_client()
    view = fresh.get(f"/v1/games/{game_id}", headers=auth(tokens[0])).get_json()
    assert (view["round"], view["phase"], len(view["history"])) == (state.round, state.phase, 2)
