"""Moves start from a process's latest copy of a game (one Redis round trip
instead of two).  Two app instances on one Redis play the part of two API
processes: whatever one does, the other's stale copy never yields a wrong
answer or a lost move."""

from __future__ import annotations

import pytest

from services.api.app import create_app
from services.engine import from_json

from .helpers import auth

CONFIG = {
    "REDIS_URL": "redis://127.0.0.1:6379/1",
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
    state = from_json(redis_db1.hget(f"game:{{{game_id}}}", "state"))
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
