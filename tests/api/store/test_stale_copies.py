"""Moves start from a process's latest copy of a game (one Redis round trip
instead of two).  Two app instances on one Redis play the part of two API
processes: whatever one does, the other's stale copy never yields a wrong
answer or a lost move."""

from __future__ import annotations

import pytest

from services.api.app import create_app
from services.engine import Bid, Play, apply, legal_moves, make_rules, parse_card, turn
from services.engine import new_game as engine_new_game
from services.engine.cards import card_code
from tests.api.helpers import stored_state
from tests.conftest import API_TEST_DB, redis_url

from ..helpers import auth

pytestmark = pytest.mark.integration  # two app instances over one real Redis

CONFIG = {
    "REDIS_URL": redis_url(API_TEST_DB),
    "AI_ENABLED": False,
    "RATE_LIMIT_ENABLED": False,
    "LOG_LEVEL": "WARNING",
    "ALLOW_SEEDED_GAMES": True,  # the games are dealt from a chosen seed
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


def test_a_move_after_redis_lost_its_scripts_still_commits(two_processes, redis_db1):
    a, _ = two_processes
    game_id, tokens = new_game(a)
    redis_db1.script_flush()  # as after a restart: the commit script must be loaded again
    assert a.post(f"/v1/games/{game_id}/bids", json={"bid": 3}, headers=auth(tokens[1])).status_code == 200
    assert stored_state(redis_db1, game_id).bids == (None, 3, None, None)
