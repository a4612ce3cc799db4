"""Long-polling /events and Redis outages, over real gunicorn."""

from __future__ import annotations

import threading
import time

import pytest
import requests

from benchmarks.procs import free_port

from .contract import ContractSession, check_response
from .helpers import auth, create_game

pytestmark = pytest.mark.integration


def test_long_poll_returns_as_soon_as_a_move_lands(api_server):
    session = ContractSession(api_server)
    created = create_game(session, seats=[{"type": "human"}] * 4, seed=31)
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    last = session.get(f"/v1/games/{game_id}/events").json()["last_seq"]
    result: dict = {}

    def poll() -> None:
        started = time.monotonic()
        result["response"] = requests.get(
            f"{api_server}/v1/games/{game_id}/events", params={"after": last, "wait": 20}, timeout=40
        )
        result["elapsed"] = time.monotonic() - started

    poller = threading.Thread(target=poll)
    poller.start()
    time.sleep(0.5)
    seat = created["state"]["turn"]
    assert session.post(f"/v1/games/{game_id}/bids", json={"bid": 2}, headers=auth(tokens[seat])).ok
    poller.join()
    check_response(result["response"])
    events = result["response"].json()["events"]
    assert [e["type"] for e in events] == ["bid"] and events[0]["data"] == {"seat": seat, "bid": 2}
    assert result["elapsed"] < 15  # woke on the move, not at the end of the wait


def test_long_poll_with_nothing_new_returns_empty_after_wait(api_server):
    session = ContractSession(api_server)
    game_id = create_game(session)["game_id"]
    last = session.get(f"/v1/games/{game_id}/events").json()["last_seq"]
    started = time.monotonic()
    page = session.get(f"/v1/games/{game_id}/events", params={"after": last, "wait": 1}).json()
    assert page["events"] == [] and page["last_seq"] == last
    assert time.monotonic() - started >= 0.9


def test_redis_down_gives_quick_503_problem(gunicorn_factory):
    dead = f"redis://127.0.0.1:{free_port()}/1"
    base = gunicorn_factory({"REDIS_URL": dead, "REDIS_SOCKET_TIMEOUT": "0.5"}, workers=1)
    session = ContractSession(base)
    for method, path, body in (
        ("GET", "/v1/games/abc", None),
        ("POST", "/v1/games", {}),
        ("GET", "/v1/games/abc/events", None),
    ):
        started = time.monotonic()
        response = session.request(method, path, json=body)
        assert response.status_code == 503
        assert response.json()["code"] == "unavailable"
        assert response.headers["Retry-After"]
        assert time.monotonic() - started < 5
    assert session.get("/v1/rules").status_code == 200
