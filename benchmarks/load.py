"""Load test: many concurrent games over HTTP, against real processes. Prints JSON.

    python -m benchmarks.load [--games 200] [--seconds 60] [--humans 2] [--level standard]
                              [--api-workers 2] [--ai-workers 1]
                              [--redis-url redis://127.0.0.1:6379/3]

Starts a Celery AI worker and gunicorn on loopback against the Redis at
``--redis-url`` (flushed first), then runs ``--games``
games at once for ``--seconds``: the generator plays the human seats the way
a client does (long-poll ``/events``, read its view, move when it is its
turn) and the other seats are computer players at ``--level``.  A finished
game is replaced by a new one.  Traffic goes to 127.0.0.1 only and stops by
itself.  Rate limits are off for the run (every simulated player shares one
address).

Figures: moves applied per second (all seats) and AI decisions per second,
p50/p95/p99 latency per endpoint, errors (must be 0), Redis memory per
game it holds (in play, and finished ones still kept).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import random
import threading
import time
from collections import defaultdict
from typing import Any

import redis
import requests

from testkit.processes import running, start_gunicorn, start_worker


class Recorder:
    """Latencies per endpoint, errors and move counts, shared by all game threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.moves = 0
        self.ai_moves = 0
        self.games_finished = 0

    def call(self, name: str, session: requests.Session, method: str, url: str, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            response = session.request(method, url, timeout=60, **kwargs)
        except requests.RequestException as error:
            with self.lock:
                self.errors.append(f"{name}: {error.__class__.__name__}")
            return None
        elapsed = time.perf_counter() - started
        with self.lock:
            if name != "events":  # long polls wait on purpose
                self.latency[name].append(elapsed)
            if response.status_code >= 400:
                self.errors.append(f"{name}: {response.status_code} {response.text[:120]}")
                return None
        return response.json()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def play_games(base: str, rec: Recorder, stop_at: float, humans: int, level: str, seed: int) -> None:
    """One table, played until the time is up; a finished game is replaced."""
    rng = random.Random(seed)
    session = requests.Session()
    while time.monotonic() < stop_at:
        seats = [{"type": "human"}] * humans + [{"type": "ai", "level": level}] * (4 - humans)
        created = rec.call(
            "create", session, "POST", f"{base}/v1/games", json={"rules": {"preset": "partnership"}, "seats": seats}
        )
        if created is None:
            return
        game = f"{base}/v1/games/{created['game_id']}"
        tokens = {s["seat"]: s["token"] for s in created["seats"] if s.get("token")}
        watcher = {"Authorization": f"Bearer {next(iter(tokens.values()))}"}
        after, over = 0, False
        while not over and time.monotonic() < stop_at:
            page = rec.call(
                "events", session, "GET", f"{game}/events", params={"after": after, "wait": 5}, headers=watcher
            )
            if page is None:
                return
            for event in page["events"]:
                after = event["seq"]
                if event["type"] in ("bid", "card_played"):
                    with rec.lock:
                        rec.moves += 1
                        rec.ai_moves += event["data"]["seat"] not in tokens
                over = over or event["type"] == "game_over"
            spectator = rec.call("view", session, "GET", game)
            if spectator is None:
                return
            over = over or spectator["phase"] == "game_over"
            seat = spectator["turn"]
            if seat in tokens and not over:
                headers = {"Authorization": f"Bearer {tokens[seat]}"}
                mine = rec.call("view", session, "GET", game, headers=headers)
                if mine is None or not mine["legal"]:
                    continue
                choice = rng.choice(mine["legal"])
                kind, body = ("bid", {"bid": choice}) if mine["phase"] == "bidding" else ("play", {"card": choice})
                path = "/bids" if kind == "bid" else "/plays"
                headers["If-Match"] = f'"{mine["version"]}"'
                rec.call(kind, session, "POST", game + path, json=body, headers=headers)
        if over:
            with rec.lock:
                rec.games_finished += 1


def run_share(args: tuple[str, float, int, str, range]) -> dict[str, Any]:
    """One load-generator process: a thread per game in ``games``; returns its records."""
    base, stop_at, humans, level, games = args
    rec = Recorder()
    threads = [
        threading.Thread(target=play_games, args=(base, rec, stop_at, humans, level, i), daemon=True) for i in games
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(0.0, stop_at - time.monotonic()) + 60)
    return {
        "latency": dict(rec.latency),
        "errors": rec.errors,
        "moves": rec.moves,
        "ai_moves": rec.ai_moves,
        "games_finished": rec.games_finished,
    }


def games_kept(client: redis.Redis) -> int:
    """The games Redis holds (in play, and finished ones still kept): each has several ``game:{id}…`` keys."""
    return len({key.split(b"}", 1)[0] for key in client.scan_iter(match="game:{*", count=1000)})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--humans", type=int, default=2, help="human seats per game (1-3)")
    parser.add_argument("--level", default="standard", choices=["easy", "standard", "pro"])
    parser.add_argument("--api-workers", type=int, default=2)
    parser.add_argument(
        "--api-threads",
        type=int,
        default=128,
        help="gthread (API_WORKER_CLASS=gthread): threads per worker (≥ long polls)",
    )
    parser.add_argument("--ai-workers", type=int, default=1, help="worker processes (prefork concurrency)")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/3", help="the database to use (flushed first)")
    parser.add_argument(
        "--procs", type=int, default=2, help="load-generator processes (the games are split between them)"
    )
    args = parser.parse_args()
    worker_class = os.environ.get("API_WORKER_CLASS", "gevent")  # gunicorn.conf.py's default

    url = args.redis_url
    client = redis.Redis.from_url(url)
    client.flushdb()
    worker = start_worker(url, queues=(f"ai.{args.level}",), concurrency=args.ai_workers)
    gunicorn, base = start_gunicorn(
        url, workers=args.api_workers, threads=args.api_threads, env={"RATE_LIMIT_ENABLED": "0"}
    )
    with running(gunicorn, worker):
        baseline = client.info("memory")["used_memory"]
        started = time.monotonic()
        stop_at = started + args.seconds
        shares = [(base, stop_at, args.humans, args.level, range(i, args.games, args.procs)) for i in range(args.procs)]
        with mp.get_context("fork").Pool(args.procs) as pool:
            pending = pool.map_async(run_share, shares)
            time.sleep(max(0.0, args.seconds * 0.8))
            memory = client.info("memory")["used_memory"] - baseline
            kept = games_kept(client)
            parts = pending.get(timeout=args.seconds + 120)
        elapsed = time.monotonic() - started
    rec = Recorder()
    for part in parts:
        for name, values in part["latency"].items():
            rec.latency[name].extend(values)
        rec.errors += part["errors"]
        rec.moves += part["moves"]
        rec.ai_moves += part["ai_moves"]
        rec.games_finished += part["games_finished"]
    print(
        json.dumps(
            {
                "benchmark": "load",
                "python": platform.python_version(),
                "games_concurrent": args.games,
                "humans_per_game": args.humans,
                "ai_level": args.level,
                "api_workers": args.api_workers,
                "api_worker_class": worker_class,
                **({"api_threads_per_worker": args.api_threads} if worker_class == "gthread" else {}),
                "load_generator_processes": args.procs,
                "ai_worker_processes": args.ai_workers,
                "seconds": round(elapsed, 1),
                "moves_per_second": round(rec.moves / elapsed, 1),
                "ai_decisions_per_second": round(rec.ai_moves / elapsed, 1),
                "games_finished": rec.games_finished,
                "latency_ms": {
                    name: {
                        "count": len(values),
                        "p50": round(percentile(values, 0.50) * 1000, 2),
                        "p95": round(percentile(values, 0.95) * 1000, 2),
                        "p99": round(percentile(values, 0.99) * 1000, 2),
                    }
                    for name, values in sorted(rec.latency.items())
                },
                "errors": len(rec.errors),
                "error_samples": rec.errors[:5],
                "games_in_redis": kept,
                "redis_bytes_per_game": round(memory / kept) if kept else None,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
