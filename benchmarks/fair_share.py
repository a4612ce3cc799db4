"""One client floods computer-only games while people play: ``python -m benchmarks.fair_share``. Prints JSON.

    python -m benchmarks.fair_share [--people 4] [--level hard] [--think-ms 300] [--warmup-seconds 5]
                                    [--baseline-seconds 20] [--flood-seconds 10] [--tail-seconds 10]
                                    [--flood-connections 4] [--pace-seconds S] [--redis-url URL | --redis-port N]

The stack as the run command starts it (``services/stack.py``), with every setting at its default
(quotas and rate limits on; ``--pace-seconds`` sets ``COMPUTER_GAME_PACE_SECONDS``, 0 for unpaced bulk):
gunicorn (``gunicorn.conf.py``, 2 gevent workers), a Celery worker of 2 processes for the interactive queues and one of 1 process at ``nice`` +10 for the bulk queues, on
``--redis-url`` (default ``redis://127.0.0.1:6379/4``, flushed first; ``--redis-port`` keeps the
database and changes the port).

``--people`` people, each from a loopback address of their own (127.0.1.x), play games against three
``--level`` computers: each follows its game on ``/stream``, reads its view after each event that
may give it the turn (seat 3's move, a trick it won, a round it starts), and on its turn thinks
``--think-ms`` and moves.  A **computer move's latency** is the time from the arrival of the event
of the move before it (the person's or another computer's: that commit sent the computer its turn)
to the arrival of the computer's own event, both on the person's stream.

After ``--warmup-seconds``, the people's computer moves are measured for ``--baseline-seconds``
(``without_flood``).  Then one client address (127.0.0.2) floods: ``--flood-connections``
connections send ``POST /v1/games`` for four ``--level`` computers back to back for
``--flood-seconds`` (in a process of its own), never reading the games; the people's computer moves
from the flood's start to ``--tail-seconds`` after its end (the accepted games still play) are
``with_flood``.  JSON: each window's moves, p50/p99/max in ms and the cores each part of the stack
used (``cores_used``: API, interactive worker, bulk worker, Redis), the flood's requests, games
accepted and refusals by code, the queues' lengths at the flood's end, ``p99_ratio`` (with / without)
and ``goal_met`` (the ratio at most ``goal_p99_ratio_max``, 2).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import random
import signal
import threading
import time
from collections import Counter
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psutil
import redis
import requests

from services.api.config import DEFAULTS
from services.computers import BULK_QUEUES, QUEUES, WORKER_QUEUES
from services.stack import BULK_CONCURRENCY, BULK_NICE
from testkit.http_clients import auth, from_address
from testkit.processes import running, start_gunicorn, start_worker

from .host import machine

FLOOD_ADDRESS = "127.0.0.2"
GOAL_P99_RATIO = 2.0
FAIR_SHARE_SETTINGS = (
    "RATE_LIMIT_ENABLED",
    "RATE_LIMIT_PER_ADDRESS",
    "CREATE_RATE_LIMIT",
    "MAX_GAMES_IN_PLAY",
    "MAX_COMPUTER_GAMES",
    "PAUSE_UNWATCHED_SECONDS",
    "COMPUTER_GAME_PACE_SECONDS",
)
WORKER_PROCESSES = 2  # the run command's default (services/stack.py --ai-concurrency)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def figures(latencies: list[float], seconds: float) -> dict[str, Any]:
    return {
        "seconds": round(seconds, 1),
        "computer_moves": len(latencies),
        "p50_ms": round(percentile(latencies, 0.50) * 1000, 1),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 1),
        "max_ms": round(max(latencies, default=0.0) * 1000, 1),
    }


class Person:
    """One person at one table against three computers: a stream reader that timestamps every move's event,
    and the person's own moves on their turn.  Plays game after game until stopped."""

    def __init__(self, base: str, index: int, level: str, think: float) -> None:
        self.base, self.level, self.think = base, level, think
        self.address = f"127.0.1.{index + 1}"
        self.rng = random.Random(index)
        self.samples: list[tuple[float, float]] = []  # (arrival, latency) of each computer move
        self.errors: Counter[str] = Counter()
        self.stopping = threading.Event()
        self.changed = threading.Condition()
        self.seen = 0  # events that may have given the person the turn (may_give_the_turn)

    def run(self) -> None:
        http = from_address(requests.Session(), self.address)
        while not self.stopping.is_set():
            seats = [{"type": "human"}] + [{"type": "ai", "level": self.level}] * 3
            created = http.post(f"{self.base}/v1/games", json={"rules": {"preset": "partnership"}, "seats": seats})
            if created.status_code != 201:
                self.errors[f"create {created.status_code}"] += 1
                self.stopping.wait(1.0)
                continue
            game_id, token = created.json()["game_id"], created.json()["seats"][0]["token"]
            reader = threading.Thread(target=self.follow, args=(game_id, token), daemon=True)
            reader.start()
            self.play(http, game_id, token)
            reader.join(10)

    def follow(self, game_id: str, token: str) -> None:
        """The game's stream: each move event's arrival, and the latency of each computer's."""
        http = from_address(requests.Session(), self.address)
        last_move, last_id = time.monotonic(), "0"
        while not self.stopping.is_set():
            headers = {**auth(token), "Last-Event-ID": last_id}
            try:
                with http.get(f"{self.base}/v1/games/{game_id}/stream", headers=headers, stream=True, timeout=60) as s:
                    if s.status_code != 200:
                        return  # 204: the game is over
                    for line in s.iter_lines(chunk_size=None, decode_unicode=True):
                        if self.stopping.is_set():  # checked at every line, the stream's heartbeats too
                            return
                        if not line.startswith("data: "):
                            continue
                        arrived = time.monotonic()
                        entry = json.loads(line[6:])
                        if "seq" not in entry:  # a table frame (presence, a quick message): not a log event
                            continue
                        last_id = str(entry["seq"])
                        if entry["type"] in ("bid", "card_played"):
                            if entry["data"]["seat"] != 0:
                                self.samples.append((arrived, arrived - last_move))
                            last_move = arrived
                        if may_give_the_turn(entry):
                            with self.changed:
                                self.seen += 1
                                self.changed.notify_all()
                        if entry["type"] == "game_over":
                            return
            except requests.RequestException as error:
                if not self.stopping.is_set():  # once stopped, the stream breaks when the API is stopped
                    self.errors[f"stream {error.__class__.__name__}"] += 1

    def play(self, http: requests.Session, game_id: str, token: str) -> None:
        """On each event that may give them the turn (and at the start), the person's view; on their turn, think,
        then move."""
        handled = 0
        while not self.stopping.is_set():
            with self.changed:
                if self.seen == handled and not self.stopping.is_set():
                    self.changed.wait(timeout=5)  # woken by the stream's next event
                handled = self.seen
            view = http.get(f"{self.base}/v1/games/{game_id}", headers=auth(token))
            if view.status_code != 200:
                self.errors[f"view {view.status_code}"] += 1
                continue
            mine = view.json()
            if mine["phase"] == "game_over":
                return
            if not mine["legal"]:
                continue
            time.sleep(self.think)  # the person thinks (a stand-in for a person, not a synchronisation)
            choice = self.rng.choice(mine["legal"])
            path, body = ("bids", {"bid": choice}) if mine["phase"] == "bidding" else ("plays", {"card": choice})
            moved = http.post(f"{self.base}/v1/games/{game_id}/{path}", json=body, headers=auth(token))
            if moved.status_code != 200:
                self.errors[f"move {moved.status_code}"] += 1


def may_give_the_turn(entry: dict[str, Any]) -> bool:
    """Whether the event may have made it seat 0's turn (the person sits there; play goes 0, 1, 2, 3): the
    person reads their view only then, as a client following the stream does, not after every event."""
    data = entry["data"]
    if entry["type"] in ("bid", "card_played"):
        return data["seat"] == 3
    if entry["type"] == "trick_won":
        return data["seat"] == 0
    if entry["type"] == "round_started":
        return data.get("turn") == 0
    return entry["type"] == "game_over"


def flood(base: str, level: str, seconds: float, connections: int, out: Any) -> None:
    """One address creating computer-only games as fast as its connections allow (a process of its own)."""
    stop_at = time.monotonic() + seconds
    counts: Counter[str] = Counter()
    lock = threading.Lock()
    body = {"rules": {"preset": "partnership"}, "seats": [{"type": "ai", "level": level}] * 4}

    def loop() -> None:
        http = from_address(requests.Session(), FLOOD_ADDRESS)
        while time.monotonic() < stop_at:
            try:
                response = http.post(f"{base}/v1/games", json=body, timeout=30)
            except requests.RequestException as error:
                outcome = error.__class__.__name__
            else:
                outcome = "accepted" if response.status_code == 201 else str(response.json().get("code"))
            with lock:
                counts[outcome] += 1

    threads = [threading.Thread(target=loop) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out.put(dict(counts))


def cpu_seconds(process: psutil.Process) -> float:
    """User + system CPU of a process and its children (gunicorn's and Celery's pool processes)."""
    total = 0.0
    for each in [process, *process.children(recursive=True)]:
        try:
            times = each.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


class StackCpu:
    """CPU seconds of each part of the stack between marks: where a window's load goes.  The processes'
    own and their children's (gunicorn's and Celery's pool processes); Redis's from its ``INFO cpu``, as
    ``benchmarks.api`` reads it."""

    def __init__(self, parts: dict[str, psutil.Process], store: redis.Redis) -> None:
        self.parts = parts
        self.store = store
        self.marks: list[tuple[float, dict[str, float]]] = []

    def mark(self) -> None:
        used = {name: cpu_seconds(p) for name, p in self.parts.items()}
        info = self.store.info("cpu")
        used["redis"] = float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
        self.marks.append((time.monotonic(), used))

    def between(self, first: int, last: int) -> dict[str, float]:
        """Cores used by each part from mark ``first`` to mark ``last`` (CPU seconds per second)."""
        (t0, a), (t1, b) = self.marks[first], self.marks[last]
        return {name: round((b[name] - a[name]) / (t1 - t0), 3) for name in a}


def window(people: list[Person], start: float, end: float) -> list[float]:
    return [latency for person in people for arrived, latency in person.samples if start <= arrived < end]


def redis_url_of(args: argparse.Namespace) -> str:
    if args.redis_port is None:
        return args.redis_url
    parts = urlsplit(args.redis_url)
    return urlunsplit(parts._replace(netloc=f"{parts.hostname or '127.0.0.1'}:{args.redis_port}"))


def run(args: argparse.Namespace) -> dict[str, Any]:
    url = redis_url_of(args)
    store = redis.Redis.from_url(url)
    store.flushdb()
    worker = start_worker(url, queues=QUEUES, concurrency=WORKER_PROCESSES)  # as the run command: two workers
    bulk = start_worker(url, queues=BULK_QUEUES, concurrency=BULK_CONCURRENCY, nice=BULK_NICE)
    env = {"LOG_LEVEL": "WARNING"}  # every fair-share setting at its default, but for --pace-seconds
    if args.pace_seconds is not None:
        env["COMPUTER_GAME_PACE_SECONDS"] = str(args.pace_seconds)
    api, base = start_gunicorn(url, env=env)
    meter = StackCpu(
        {
            "api": psutil.Process(api.pid),
            "interactive_worker": psutil.Process(worker.pid),
            "bulk_worker": psutil.Process(bulk.pid),
        },
        store,
    )
    # SIGQUIT: once the windows are measured, nothing is gained by stopping gracefully (the API would wait
    # for its people's streams to notice they left, the workers for the flood's queued decisions).
    with running(api, worker, bulk, sig=signal.SIGQUIT):
        people = [Person(base, i, args.level, args.think_ms / 1000) for i in range(args.people)]
        threads = [threading.Thread(target=person.run, daemon=True) for person in people]
        for thread in threads:
            thread.start()
        time.sleep(args.warmup_seconds)  # measurement windows, not synchronisation
        baseline_start = time.monotonic()
        meter.mark()
        time.sleep(args.baseline_seconds)
        flood_start = time.monotonic()
        meter.mark()
        results: Any = mp.get_context("fork").Queue()
        flooder = mp.get_context("fork").Process(
            target=flood, args=(base, args.level, args.flood_seconds, args.flood_connections, results)
        )
        flooder.start()
        flooder.join()
        flood_end = time.monotonic()
        queues = {name: int(store.llen(name)) for name in WORKER_QUEUES if store.llen(name)}
        counts = results.get(timeout=10)
        time.sleep(args.tail_seconds)
        tail_end = time.monotonic()
        meter.mark()
        for person in people:
            person.stopping.set()
            with person.changed:
                person.changed.notify_all()
        for thread in threads:
            thread.join(30)
    without = figures(window(people, baseline_start, flood_start), flood_start - baseline_start)
    without["cores_used"] = meter.between(0, 1)
    with_flood = figures(window(people, flood_start, tail_end), tail_end - flood_start)
    with_flood["cores_used"] = meter.between(1, 2)
    ratio = with_flood["p99_ms"] / without["p99_ms"] if without["p99_ms"] else None
    accepted = counts.pop("accepted", 0)
    return {
        "benchmark": "fair_share",
        "date_utc": datetime.now(UTC).strftime("%Y-%m-%d %H:%M"),
        "machine": machine(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "settings": {name: env.get(name, DEFAULTS[name]) for name in FAIR_SHARE_SETTINGS},
        "stack": {
            "api_workers": 2,
            "api_worker_class": "gevent",
            "interactive_worker_processes": WORKER_PROCESSES,
            "bulk_worker_processes": BULK_CONCURRENCY,
            "bulk_worker_nice": BULK_NICE,
        },
        "people": args.people,
        "level": args.level,
        "think_ms": args.think_ms,
        "flood": {
            "seconds": round(flood_end - flood_start, 1),
            "connections": args.flood_connections,
            "requests": accepted + sum(counts.values()),
            "games_accepted": accepted,
            "refused": counts,
            "queues_at_end": queues,
        },
        "without_flood": without,
        "with_flood": with_flood,
        "p99_ratio": round(ratio, 2) if ratio is not None else None,
        "goal_p99_ratio_max": GOAL_P99_RATIO,
        "goal_met": ratio is not None and ratio <= GOAL_P99_RATIO,
        "people_errors": dict(sum((person.errors for person in people), Counter())),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=4, help="people, each at a table with three computers")
    parser.add_argument("--level", default="hard", help="the computers' level, people's and flood's")
    parser.add_argument("--think-ms", type=float, default=300, help="a person's time before each move")
    parser.add_argument("--warmup-seconds", type=float, default=5)
    parser.add_argument("--baseline-seconds", type=float, default=20, help="people measured without the flood")
    parser.add_argument("--flood-seconds", type=float, default=10)
    parser.add_argument("--tail-seconds", type=float, default=10, help="measured on after the flood ends")
    parser.add_argument("--flood-connections", type=int, default=4, help="the flooding address's connections")
    parser.add_argument("--pace-seconds", type=float, help="COMPUTER_GAME_PACE_SECONDS (default: its default)")
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/4"))
    parser.add_argument("--redis-port", type=int, help="the Redis port (the database of --redis-url is kept)")
    print(json.dumps(run(parser.parse_args(argv)), indent=2))


if __name__ == "__main__":
    main()
