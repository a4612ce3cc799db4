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
import time
from datetime import UTC, datetime

import redis
import requests

from testkit.fault_drills import api_kills
from testkit.http_clients import auth, random_move, wait_for_turn
from testkit.processes import free_port, gunicorn, running, start_redis, start_worker, stop

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
