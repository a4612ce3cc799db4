"""Fault figures: how long the service takes to notice and recover. Prints JSON.

    python -m benchmarks.faults [--deadline 10]

1. **AI worker SIGKILLed while it holds a decision**: the API re-sends the
   turn once ``AI_DECISION_DEADLINE_SECONDS`` (``--deadline``) has passed and a
   fresh worker answers: seconds from the kill to the next AI move.
2. **Redis down, then back** (a private Redis with an append-only file, on a
   free port): how fast a request gets its ``503``; seconds from Redis's
   restart to the first ``200``; whether the game is exactly where it was.
3. **API worker processes SIGKILLed mid-request**: requests cut off, and the
   number of games whose stored state and event log disagree (must be 0).

The pytest versions of these (tests/api/test_faults.py) assert the outcomes;
this command measures them with production-like settings.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import tempfile
import threading
import time
from datetime import UTC, datetime

import psutil
import redis
import requests

from services.api.redis_store import stored_state
from testkit.http_clients import EventFollower, auth, random_move, replay_events, wait_for_turn
from testkit.processes import free_port, gunicorn, running, start_gunicorn, start_redis, start_worker, stop

RULES = {"preset": "partnership", "win_score": 120, "lose_score": -120}


def worker_kill(deadline: float) -> dict[str, float | bool]:
    url = "redis://127.0.0.1:6379/5"
    client = redis.Redis.from_url(url)
    client.flushdb()
    http, rng = requests.Session(), random.Random(1)
    worker = start_worker(url, queues=("ai.standard",))
    env = {"AI_DECISION_DEADLINE_SECONDS": str(deadline), "AI_SWEEP_INTERVAL_SECONDS": "0.5"}
    with gunicorn(url, env=env) as base, running(worker):
        seats = [{"type": "human"}] + [{"type": "ai", "level": "standard"}] * 3
        created = http.post(f"{base}/v1/games", json={"rules": RULES, "seats": seats, "seed": 3}).json()
        game_id, token = created["game_id"], created["seats"][0]["token"]
        while True:
            wait_for_turn(http, base, game_id, 0)
            os.killpg(worker.pid, signal.SIGSTOP)
            random_move(http, base, game_id, token, rng)
            version = http.get(f"{base}/v1/games/{game_id}", timeout=10).json()["version"]
            held_by = time.monotonic() + 3
            while time.monotonic() < held_by and client.llen("ai.standard"):
                time.sleep(0.02)
            if client.llen("ai.standard") == 0:
                break
            os.killpg(worker.pid, signal.SIGCONT)
        os.killpg(worker.pid, signal.SIGKILL)
        killed_at = time.monotonic()
        replacement = start_worker(url, queues=("ai.standard",))
        with running(replacement):
            while http.get(f"{base}/v1/games/{game_id}", timeout=10).json()["version"] == version:
                time.sleep(0.05)
            recovered = time.monotonic() - killed_at
    return {"deadline_s": deadline, "kill_to_next_ai_move_s": round(recovered, 2)}


def redis_outage() -> dict[str, float | bool]:
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    http, rng = requests.Session(), random.Random(2)
    with tempfile.TemporaryDirectory() as data_dir:
        server = start_redis(port, data_dir)
        try:
            with gunicorn(url, env={"AI_ENABLED": "0"}) as base:
                created = http.post(f"{base}/v1/games", json={"rules": RULES, "seats": [{"type": "human"}] * 4}).json()
                game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
                for _ in range(20):
                    random_move(http, base, game_id, tokens[http.get(f"{base}/v1/games/{game_id}").json()["turn"]], rng)
                before = http.get(f"{base}/v1/games/{game_id}", headers=auth(tokens[0])).json()
                stop(server)
                latencies = []
                for _ in range(10):
                    started = time.perf_counter()
                    status = http.get(f"{base}/v1/games/{game_id}", headers=auth(tokens[0]), timeout=10).status_code
                    latencies.append(time.perf_counter() - started)
                    assert status == 503
                server = start_redis(port, data_dir)
                restarted = time.monotonic()
                while (after := http.get(f"{base}/v1/games/{game_id}", headers=auth(tokens[0]))).status_code != 200:
                    time.sleep(0.05)
                recovery = time.monotonic() - restarted
                same = after.json() == before
        finally:
            stop(server)
    return {
        "503_latency_ms_p50": round(statistics.median(latencies) * 1000, 1),
        "503_latency_ms_max": round(max(latencies) * 1000, 1),
        "restart_to_first_200_s": round(recovery, 2),
        "game_exactly_where_it_was": same,
    }


def api_kills(seconds: float = 8.0, url: str = "redis://127.0.0.1:6379/5") -> dict[str, int]:
    """Four games played by threads while gunicorn workers are SIGKILLed
    every 0.4 s (the master starts new ones), on the Redis database ``url``
    (flushed first)."""
    client = redis.Redis.from_url(url)
    client.flushdb()
    server, base = start_gunicorn(url, workers=2, env={"AI_ENABLED": "0", "RATE_LIMIT_ENABLED": "0"})
    failures = 0
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds
    with running(server):
        games = []
        for seed in range(4):
            body = {"rules": RULES, "seats": [{"type": "human"}] * 4, "seed": seed}
            created = requests.post(f"{base}/v1/games", json=body, timeout=10).json()
            games.append((seed, created["game_id"], [s["token"] for s in created["seats"]]))
        # the log keeps only the last rounds: each game's whole log is read as it happens
        followers = {game_id: EventFollower(base, game_id) for _, game_id, _ in games}
        for follower in followers.values():
            follower.start()

        def player(game_id: str, tokens: list[str], seed: int) -> None:
            nonlocal failures
            http, rng = requests.Session(), random.Random(seed)
            while time.monotonic() < stop_at:
                try:
                    view = http.get(f"{base}/v1/games/{game_id}", timeout=5).json()
                    if view["phase"] == "game_over":
                        return
                    random_move(http, base, game_id, tokens[view["turn"]], rng)
                except (requests.RequestException, ValueError, KeyError):
                    with lock:
                        failures += 1

        threads = [threading.Thread(target=player, args=(g, t, s)) for s, g, t in games]
        for thread in threads:
            thread.start()
        kills = 0
        master = psutil.Process(server.pid)
        while time.monotonic() < stop_at - 1:
            time.sleep(0.4)
            if children := master.children():
                random.choice(children).send_signal(signal.SIGKILL)
                kills += 1
        for thread in threads:
            thread.join()
        inconsistent = moves = 0
        for seed, game_id, _ in games:
            stored = stored_state(client, game_id)
            version = int(client.hget(f"game:{{{game_id}}}", "v"))
            events = followers[game_id].finish()
            game_moves = sum(e["type"] in ("bid", "card_played") for e in events)
            moves += game_moves
            # the stored state is the log replayed, and every accepted move is in the log once
            inconsistent += replay_events(RULES, seed, events) != stored or version != 1 + game_moves
    return {
        "worker_kills": kills,
        "requests_cut_off": failures,
        "moves_applied": moves,
        "games_state_and_log_disagree": inconsistent,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deadline", type=float, default=10.0, help="AI_DECISION_DEADLINE_SECONDS for the worker kill")
    args = parser.parse_args()
    out = {
        "benchmark": "faults",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cores": os.cpu_count()},
        "ai_worker_sigkill": worker_kill(args.deadline),
        "redis_outage": redis_outage(),
        "api_worker_sigkill": api_kills(),
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
