"""Long-polling /events and Redis outages, over real gunicorn."""

from __future__ import annotations

import threading

import pytest
import requests

from testkit.http_clients import EventFollower
from testkit.processes import free_port

from .contract import ContractSession, check_response
from .helpers import auth, create_game, planned_game, play_planned, wait_until, waiting

pytestmark = pytest.mark.integration


def test_long_poll_wakes_on_the_move(api_server, redis_db1):
    """A poll waiting on the fan-out hub returns the move that lands meanwhile: a poll that ran
    out its wait instead would return an empty page."""
    session = ContractSession(api_server)
    created = create_game(session, seats=[{"type": "human"}] * 4, seed=31)
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    last = session.get(f"/v1/games/{game_id}/events").json()["last_seq"]
    result: dict = {}

    def poll() -> None:
        result["response"] = requests.get(
            f"{api_server}/v1/games/{game_id}/events", params={"after": last, "wait": 30}, timeout=60
        )

    already = waiting(api_server)["listeners"]
    poller = threading.Thread(target=poll)
    poller.start()
    wait_until(lambda: waiting(api_server)["listeners"] > already, "the long poll never waited")
    seat = created["state"]["turn"]
    assert session.post(f"/v1/games/{game_id}/bids", json={"bid": 2}, headers=auth(tokens[seat])).ok
    poller.join()
    check_response(result["response"])
    events = result["response"].json()["events"]
    assert [e["type"] for e in events] == ["bid"] and events[0]["data"] == {"seat": seat, "bid": 2}


def test_long_poll_with_nothing_new_waits_then_returns_empty(api_server, redis_db1):
    session = ContractSession(api_server)
    game_id = create_game(session)["game_id"]
    last = session.get(f"/v1/games/{game_id}/events").json()["last_seq"]
    result: dict = {}

    def poll() -> None:
        result["page"] = session.get(f"/v1/games/{game_id}/events", params={"after": last, "wait": 5}).json()

    already = waiting(api_server)["listeners"]
    poller = threading.Thread(target=poll)
    poller.start()
    wait_until(lambda: waiting(api_server)["listeners"] > already, "the poll returned without waiting for events")
    poller.join()
    assert isinstance(result["page"].pop("server_time_ms"), int)
    assert result["page"] == {"game_id": game_id, "events": [], "last_seq": last}


def test_redis_down_gives_503_problem(gunicorn_factory):
    dead = f"redis://127.0.0.1:{free_port()}/1"
    base = gunicorn_factory({"REDIS_URL": dead, "REDIS_SOCKET_TIMEOUT": "0.5"}, workers=1)
    session = ContractSession(base)
    for method, path, body in (
        ("GET", "/v1/games/abc", None),
        ("POST", "/v1/games", {}),
        ("GET", "/v1/games/abc/events", None),
    ):
        response = session.request(method, path, json=body)
        assert response.status_code == 503
        assert response.json()["code"] == "unavailable"
        assert response.headers["Retry-After"]
    assert session.get("/v1/rules").status_code == 200


def test_a_resume_inside_the_kept_log_misses_nothing_and_one_before_it_is_410(api_server):
    """The log keeps the current and the previous round: a client behind that gets 410 with
    first_seq, reloads the view, resumes from its last_seq and misses nothing; a client inside
    it resumes without a gap or a repeat; finished rounds stay in the view's history."""
    session = ContractSession(api_server)
    created, plan = planned_game(session, seed=61)
    game_id = created["game_id"]
    follower = EventFollower(api_server, game_id)  # a client that never fell behind: the reference log
    follower.start()
    play_planned(session, plan, lambda view: view["round"] == 4)
    behind = session.get(f"/v1/games/{game_id}/events", params={"after": 0})
    assert behind.status_code == 410 and behind.json()["code"] == "too_far_behind"
    first_seq = behind.json()["first_seq"]
    view = session.get(f"/v1/games/{game_id}").json()
    assert [r["round"] for r in view["history"]] == [1, 2, 3]  # finished rounds as hand records
    play_planned(session, plan, lambda v: v["round"] == 4 and len(v["tricks"]) == 2)
    latest = session.get(f"/v1/games/{game_id}").json()["last_seq"]  # every seat is a person: quiet now
    wait_until(lambda: follower.events and follower.events[-1]["seq"] >= latest, "the follower lagged")
    reference = {e["seq"]: e for e in follower.events}
    assert reference[first_seq]["type"] == "round_started" and reference[first_seq]["data"]["round"] == 3

    inside = session.get(f"/v1/games/{game_id}/events", params={"after": first_seq - 1}).json()
    assert inside["events"] == [reference[s] for s in range(first_seq, inside["last_seq"] + 1)]
    resumed = session.get(f"/v1/games/{game_id}/events", params={"after": view["last_seq"]}).json()
    assert resumed["events"] == [reference[s] for s in range(view["last_seq"] + 1, resumed["last_seq"] + 1)]
    assert resumed["events"], "the moves after the reloaded view"
    assert follower.finish()[-1]["seq"] == resumed["last_seq"]
