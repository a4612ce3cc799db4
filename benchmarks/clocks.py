"""Concurrent turn clocks and the lateness of their timeout moves: ``python -m benchmarks.clocks``. Prints JSON.

    python -m benchmarks.clocks [--games 10000] [--create-rate 100] [--control fast] [--clock-scale S]
                                [--api-workers 2] [--worker-concurrency 2] [--redis-url URL]

The stack as deployed on one machine, on a Redis of its own (a fresh server on a free port, or ``--redis-url``,
flushed first): gunicorn (``gunicorn.conf.py``, ``--api-workers`` gevent workers; rate limits and records off)
and a Celery worker of ``--worker-concurrency`` processes on ``ai.basic``, the takeover level of the games.

``--games`` games of four people who never move are created at ``--create-rate`` a second (one client process,
paced), each with the ``--control`` clock scaled by ``CLOCK_SCALE`` (``--clock-scale``; by default so that the
first deadline comes 10 s after the last game was created: every clock runs at once, and the deadlines then
fall at the creation rate).  Each game's first turn times out; the timeout move (sweep, ``ai.decide`` on the
worker, result, commit) says when it was made (``turn_timed_out``'s ``at_ms``) and what the deadline was
(``deadline_ms``): the **lateness** is the difference.  JSON: the settings, ``concurrent_clocks`` (games whose
clock ran when the first deadline passed), the timeouts found, lateness p50/p90/p99/max in ms, how many were
over 1 s, its two parts (``sweep``: deadline to ``ai.decide`` sent, from the timers' pending turn;
``decision``: sent to committed), the p99 and max of each 20 s of deadlines (``windows``: a stall shows where it
was), games with no timeout (``missed``) or two for one turn (``duplicates``), the CPU each part used while the
clocks fired and the machine's load average then, and ``goal_met`` (p99 at most 1 s, nothing missed or doubled).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import psutil
import redis
import requests

from services.api.games.clocks import CONTROLS
from services.api.store.redis_keys import pending_key
from testkit.processes import free_port, running, start_gunicorn, start_redis, start_worker, stop

from .host import machine

GOAL_P99_MS = 1000
MARGIN_SECONDS = 10.0  # the first deadline comes this long after the last game was created (the default scale)
CLIENT_THREADS = 8


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def cpu_seconds(process: psutil.Process) -> float:
    """User + system CPU of a process and its children (gunicorn's workers, Celery's pool)."""
    total = 0.0
    for each in [process, *process.children(recursive=True)]:
        try:
            times = each.cpu_times()
            total += times.user + times.system
        except psutil.NoSuchProcess:
            continue
    return total


def create_games(base: str, games: int, rate: float, control: str) -> list[tuple[str, float]]:
    """``games`` games of four people with the ``control`` clock, one every ``1 / rate`` s: (id, created at)."""
    body = {"seats": [{"type": "human"}] * 4, "options": {"clock": control, "ai_takeover": "basic"}}
    local = threading.local()
    start = time.time() + 0.5

    def create(i: int) -> tuple[str, float]:
        time.sleep(max(0.0, start + i / rate - time.time()))
        session = getattr(local, "session", None) or requests.Session()
        local.session = session
        response = session.post(f"{base}/v1/games", json=body, timeout=30)
        response.raise_for_status()
        return response.json()["game_id"], time.time()

    with ThreadPoolExecutor(CLIENT_THREADS) as pool:
        return list(pool.map(create, range(games)))


def timeouts_of(store: redis.Redis, game_ids: list[str]) -> dict[str, tuple[list[dict[str, Any]], float | None]]:
    """Each game's ``turn_timed_out`` entries at version 2 (its first turn's), read from the stored log, and when
    the sweep sent its ``ai.decide`` (the timers' pending turn: the next is sent at the next deadline)."""
    found: dict[str, tuple[list[dict[str, Any]], float | None]] = {}
    for chunk in range(0, len(game_ids), 500):
        ids = game_ids[chunk : chunk + 500]
        pipe = store.pipeline(transaction=False)
        for game_id in ids:
            pipe.xrange(f"game:{{{game_id}}}:events")
            pipe.get(pending_key(game_id))
        answers = pipe.execute()
        for i, game_id in enumerate(ids):
            events = [json.loads(fields[b"e"]) for _, fields in answers[2 * i]]
            pending = json.loads(answers[2 * i + 1]) if answers[2 * i + 1] else None
            sent = pending["sent_at"] * 1000 if pending and pending["version"] == 1 else None
            found[game_id] = ([e for e in events if e["type"] == "turn_timed_out" and e["version"] == 2], sent)
    return found


def lateness(found: dict[str, tuple[list[dict[str, Any]], float | None]]) -> dict[str, Any]:
    """Percentiles of the lateness (ms), and of its two parts: the sweep (deadline to sent) and the decision
    (sent to committed: the worker's queue and decision, the result's way back, the commit)."""
    late, swept, decided = [], [], []
    for entries, sent in found.values():
        if not entries:
            continue
        data = entries[0]["data"]
        late.append(data["at_ms"] - data["deadline_ms"])
        if sent is not None:
            swept.append(sent - data["deadline_ms"])
            decided.append(data["at_ms"] - sent)

    def spread(values: list[float]) -> dict[str, float]:
        return {f"p{q}": round(percentile(values, q / 100)) for q in (50, 90, 99)} | {
            "max": round(max(values, default=0))
        }

    return {
        **spread(late),
        "over_1s": sum(ms > 1000 for ms in late),
        "sweep": spread(swept),
        "decision": spread(decided),
    }


def by_window(found: dict[str, tuple[list[dict[str, Any]], float | None]], seconds: float) -> list[dict[str, Any]]:
    """The lateness p99 and max of the deadlines of each ``seconds`` of the firing (a stall shows where it was)."""
    deadlines = [(e[0]["data"]["deadline_ms"], e[0]["data"]["at_ms"]) for e, _ in found.values() if e]
    if not deadlines:
        return []
    start = min(d for d, _ in deadlines)
    windows: dict[int, list[float]] = {}
    for deadline, at in deadlines:
        windows.setdefault(int((deadline - start) / 1000 // seconds), []).append(at - deadline)
    return [
        {"from_s": i * seconds, "timeouts": len(w), "p99_ms": round(percentile(w, 0.99)), "max_ms": round(max(w))}
        for i, w in sorted(windows.items())
    ]


def timeouts_counted(base: str) -> float:
    """``spades_turn_timeouts_total`` of the API (summed over its workers)."""
    for line in requests.get(f"{base}/metrics", timeout=10).text.splitlines():
        if line.startswith("spades_turn_timeouts_total "):
            return float(line.split()[1])
    return 0.0


def run(
    games: int = 10_000,
    create_rate: float = 100.0,
    control: str = "fast",
    clock_scale: float | None = None,
    api_workers: int = 2,
    worker_concurrency: int = 2,
    redis_url: str | None = None,
) -> dict[str, Any]:
    """The benchmark (see the module doc); its figures as a dict."""
    spec = CONTROLS[control]
    window = games / create_rate
    scale = clock_scale or (window + MARGIN_SECONDS) / (spec.move_seconds + spec.reserve_seconds)
    first_deadline = (spec.move_seconds + spec.reserve_seconds) * scale
    server = None
    if redis_url is None:
        port = free_port()
        server = start_redis(port, tempfile.mkdtemp(prefix="spades-clocks-"), appendonly=False)
        redis_url = f"redis://127.0.0.1:{port}/0"
    store = redis.Redis.from_url(redis_url)
    store.flushdb()
    env = {"CLOCK_SCALE": repr(scale), "RATE_LIMIT_ENABLED": "0", "RECORDS_ENABLED": "0", "LOG_LEVEL": "WARNING"}
    try:
        worker = start_worker(redis_url, queues=("ai.basic",), concurrency=worker_concurrency, env=env)
        api, base = start_gunicorn(redis_url, workers=api_workers, env=env)
        with running(api, worker):
            started = time.time()
            created = create_games(base, games, create_rate, control)
            created_seconds = time.time() - started
            parts = {"api": psutil.Process(api.pid), "worker": psutil.Process(worker.pid)}
            redis_pid = server.pid if server is not None else int(store.info("server")["process_id"])
            parts["redis"] = psutil.Process(redis_pid)
            first = min(at for _, at in created) + first_deadline - 1.0  # the CPU from just before the first
            time.sleep(max(0.0, first - time.time()))
            cpu_before = {name: cpu_seconds(p) for name, p in parts.items()}
            firing, load_before = time.time(), os.getloadavg()[0]
            bound = max(at for _, at in created) + first_deadline + 120
            while timeouts_counted(base) < games and time.time() < bound:
                time.sleep(1.0)
            fired_seconds, load_after = time.time() - firing, os.getloadavg()[0]
            cpu = {name: round((cpu_seconds(p) - cpu_before[name]) / fired_seconds, 2) for name, p in parts.items()}
            found = timeouts_of(store, [game_id for game_id, _ in created])
    finally:
        if server is not None:
            stop(server)
    late = [e[0]["data"]["at_ms"] - e[0]["data"]["deadline_ms"] for e, _ in found.values() if e]
    first_ms = min((e[0]["data"]["deadline_ms"] for e, _ in found.values() if e), default=0)
    return {
        "benchmark": "clocks",
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "cpus": psutil.cpu_count(),
        "python": platform.python_version(),
        "settings": {
            "games": games,
            "create_rate_per_second": create_rate,
            "control": control,
            "clock_scale": round(scale, 4),
            "first_deadline_seconds": round(first_deadline, 1),
            "api_workers": api_workers,
            "worker_concurrency": worker_concurrency,
            "takeover_level": "basic",
        },
        "created_seconds": round(created_seconds, 1),
        "concurrent_clocks": sum(at * 1000 <= first_ms for _, at in created),
        "timeouts": len(late),
        "missed": sum(not e for e, _ in found.values()),
        "duplicates": sum(len(e) > 1 for e, _ in found.values()),
        "lateness_ms": lateness(found),
        "cores_used": cpu,
        "load_average_1m": [round(load_before, 2), round(load_after, 2)],  # the whole machine's, as the clocks fired
        "windows": by_window(found, 20.0),
        "goal_p99_ms_max": GOAL_P99_MS,
        "goal_met": bool(late) and percentile(late, 0.99) <= GOAL_P99_MS and len(late) == games,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000, help="concurrent clocks (games of four idle people)")
    parser.add_argument("--create-rate", type=float, default=100.0, help="games created a second")
    parser.add_argument("--control", default="fast", choices=[c for c in CONTROLS if c != "none"])
    parser.add_argument("--clock-scale", type=float, help="CLOCK_SCALE (default: first deadline after the last game)")
    parser.add_argument("--api-workers", type=int, default=2)
    parser.add_argument("--worker-concurrency", type=int, default=2)
    parser.add_argument("--redis-url", help="a Redis database to use (flushed); default: a fresh server")
    args = parser.parse_args(argv)
    figures = run(
        args.games,
        args.create_rate,
        args.control,
        args.clock_scale,
        args.api_workers,
        args.worker_concurrency,
        args.redis_url,
    )
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
