"""Fault tests: kill a worker mid-decision, restart Redis mid-game, lose Redis,
kill API processes mid-request.  Real processes only; each test uses its own
Redis database or its own Redis server so it can break things freely."""

from __future__ import annotations

import os
import random
import signal
import tempfile

import pytest
import requests

from testkit.fault_drills import api_kills
from testkit.http_clients import EventFollower, random_move, replay_events, wait_for_turn
from testkit.processes import free_port, gunicorn, running, start_redis, start_worker, stop
from tests.api.helpers import stored_state
from tests.conftest import REDIS_HOST, REDIS_PORT

from .helpers import auth, holds_within, wait_until

pytestmark = pytest.mark.integration  # real Redis / gunicorn / Celery processes

FAULT_DB = 5
SHORT = {"preset": "partnership", "win_score": 1}  # over after a round or two; a round is 56 moves


def redis_url(port: int = REDIS_PORT, db: int = FAULT_DB) -> str:
    """Database ``db`` of the tests' Redis (TEST_REDIS_PORT), or of a private server on ``port``."""
    host = REDIS_HOST if port == REDIS_PORT else "127.0.0.1"
    return f"redis://{host}:{port}/{db}"


def metric(base: str, name: str) -> float:
    text = requests.get(f"{base}/metrics", timeout=10).text
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(name + "{"))


def test_killing_a_worker_that_holds_a_decision_loses_nothing(tmp_path):
    """SIGKILL the worker while it holds an AI turn: the API re-sends the turn
    after its deadline, a new worker answers, the game finishes, no move twice."""
    import redis

    client = redis.Redis.from_url(redis_url())
    client.flushdb()
    env = {"AI_DECISION_DEADLINE_SECONDS": "2", "AI_SWEEP_INTERVAL_SECONDS": "0.2"}
    http, rng = requests.Session(), random.Random(3)
    worker = start_worker(redis_url(), queues=("ai.standard",))
    with gunicorn(redis_url(), env=env) as base, running(worker):
        seats = [{"type": "human"}] + [{"type": "ai", "level": "standard"}] * 3
        created = http.post(f"{base}/v1/games", json={"rules": SHORT, "seats": seats, "seed": 31}).json()
        game_id, token = created["game_id"], created["seats"][0]["token"]
        follower = EventFollower(base, game_id)  # the log keeps only the last rounds: read as it goes
        follower.start()
        held = False
        for _ in range(10):  # until the stopped worker has taken a turn off the queue
            wait_for_turn(http, base, game_id, 0)
            os.killpg(worker.pid, signal.SIGSTOP)
            assert random_move(http, base, game_id, token, rng).status_code == 200
            # Either the stopped worker had already prefetched the turn, or it stays queued.
            if holds_within(lambda: client.llen("ai.standard") == 0, bound=5):
                held = True
                break
            os.killpg(worker.pid, signal.SIGCONT)  # it was between polls: let it work, try the next turn
        assert held, "the stopped worker never took an AI turn off the queue"
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()
        replacement = start_worker(redis_url(), queues=("ai.standard",))
        with running(replacement):
            while True:
                view = wait_for_turn(http, base, game_id, 0, timeout=120)
                if view["phase"] == "game_over":
                    break
                assert random_move(http, base, game_id, token, rng).status_code == 200
            assert metric(base, "spades_ai_decisions_reissued_total") >= 1
        events = follower.finish()
    final = replay_events(SHORT, 31, events)  # every move legal and applied exactly once
    assert final.phase == "game_over"
    versions = [e["version"] for e in events if e["type"] in ("bid", "card_played")]
    assert len(versions) == len(set(versions))
    assert stored_state(client, game_id) == final


def test_redis_restart_with_append_only_file_resumes_the_game_and_outage_gives_503():
    port = free_port()
    url = redis_url(port, 0)
    http, rng = requests.Session(), random.Random(4)
    with tempfile.TemporaryDirectory() as data_dir:
        server = start_redis(port, data_dir)
        try:
            with gunicorn(url, env={"AI_ENABLED": "0", "REDIS_SOCKET_TIMEOUT": "0.5"}) as base:
                body = {"rules": SHORT, "seats": [{"type": "human"}] * 4, "seed": 8, "options": {"clock": "none"}}
                created = http.post(f"{base}/v1/games", json=body).json()
                game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
                for _ in range(30):
                    turn = http.get(f"{base}/v1/games/{game_id}").json()["turn"]
                    assert random_move(http, base, game_id, tokens[turn], rng).status_code == 200
                before = http.get(f"{base}/v1/games/{game_id}", headers=auth(tokens[0])).json()
                events_before = http.get(f"{base}/v1/games/{game_id}/events").json()["events"]

                stop(server)  # SIGTERM: Redis shuts down cleanly, its append-only file on disk
                down = http.get(f"{base}/v1/games/{game_id}", headers=auth(tokens[0]), timeout=30)
                assert down.status_code == 503
                assert down.headers["Content-Type"].startswith("application/problem+json")
                assert down.json()["code"] == "unavailable"
                turn = before["turn"]
                refused = human_move_blind(http, base, game_id, tokens[turn])
                assert refused.status_code == 503

                server = start_redis(port, data_dir)  # same directory: loads the append-only file
                wait_until(
                    lambda: http.get(f"{base}/v1/games/{game_id}", headers=auth(tokens[0])).status_code == 200,
                    "the API did not recover without a restart",
                )
                after = http.get(f"{base}/v1/games/{game_id}", headers=auth(tokens[0]))
                resumed, seen = after.json(), dict(before)
                assert resumed.pop("server_time_ms") > seen.pop("server_time_ms")  # the only field a response adds
                assert resumed == seen  # the game resumes exactly where it was
                assert http.get(f"{base}/v1/games/{game_id}/events").json()["events"] == events_before
                for _ in range(10):
                    turn = http.get(f"{base}/v1/games/{game_id}").json()["turn"]
                    assert random_move(http, base, game_id, tokens[turn], rng).status_code == 200
                assert http.get(f"{base}/v1/games/{game_id}").json()["version"] == before["version"] + 10
        finally:
            stop(server)


def human_move_blind(http, base, game_id, token) -> requests.Response:
    """A move sent while Redis is down (the client can't read its view first)."""
    return http.post(f"{base}/v1/games/{game_id}/bids", json={"bid": 3}, headers=auth(token), timeout=10)


def test_killing_api_processes_mid_request_applies_each_move_fully_or_not_at_all():
    result = api_kills(kills=10, url=redis_url())
    assert result["worker_kills"] == 10
    assert result["requests_cut_off"] > 0, "some requests were cut off mid-flight"
    assert result["moves_applied"] > 0, "the games made progress"
    assert result["games_state_and_log_disagree"] == 0


def test_a_session_revoked_while_the_game_store_is_down_is_revoked_and_its_seats_are_released_later(tmp_path):
    """The revocation is the records database's: it answers with Redis down, its release of the seat waits, and the
    player's next listing of their games (any device) releases it."""
    port = free_port()
    http = requests.Session()
    env = {"AI_ENABLED": "0", "REDIS_SOCKET_TIMEOUT": "0.5", "DATA_DIR": str(tmp_path)}
    with tempfile.TemporaryDirectory() as data_dir:
        server = start_redis(port, data_dir)
        try:
            with gunicorn(redis_url(port, 0), workers=1, env=env) as base:
                player = http.post(f"{base}/v1/players", json={"name": "Ada Offline"}).json()
                token = {"Player-Token": player["token"]}
                code = http.post(f"{base}/v1/players/me/link-codes", headers=token).json()["code"]
                phone = http.post(f"{base}/v1/sessions", json={"link_code": code, "device_name": "Phone"}).json()
                seats = [{"type": "human", "player": True}, {"type": "human"}, {"type": "ai"}, {"type": "ai"}]
                body = {"seats": seats, "options": {"clock": "none"}}
                created = http.post(f"{base}/v1/games", json=body, headers={"Player-Token": phone["token"]}).json()
                game_id, seat_token = created["game_id"], created["seats"][0]["token"]

                stop(server)
                revoked = http.delete(f"{base}/v1/players/me/sessions/{phone['session']['id']}", headers=token)
                assert revoked.status_code == 204, revoked.text
                server = start_redis(port, data_dir)
                wait_until(lambda: http.get(f"{base}/v1/games/{game_id}").status_code == 200, "Redis never came back")
                assert http.get(f"{base}/v1/games/{game_id}", headers=auth(seat_token)).status_code == 200
                assert metric(base, "spades_seat_releases_total") >= 1  # the failed settling, counted

                listed = http.get(f"{base}/v1/players/me/live-games", headers=token)
                assert listed.status_code == 200 and [g["game_id"] for g in listed.json()["games"]] == [game_id]
                assert http.get(f"{base}/v1/games/{game_id}", headers=auth(seat_token)).status_code == 401
                taken = http.post(f"{base}/v1/games/{game_id}/seats/0/take", headers=token)
                assert taken.status_code == 200, taken.text
        finally:
            stop(server)
