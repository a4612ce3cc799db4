"""Waiting clients per API pod: ``python -m benchmarks.waiting``.

Starts one API pod (gunicorn, ``--workers`` workers, the given worker class) on loopback, creates
``--games`` all-human games, opens ``--clients`` waiting clients (half ``/stream``, half long-poll
``/events``; seats and spectators in turn) from ``--client-procs`` asyncio processes on raw sockets,
then posts moves round-robin over the games at ``--moves-per-second`` for ``--seconds``.  Each client
notes when each game version first reaches it; move-to-notification latency is that time minus the
moment the move was sent (one machine, one clock).  Prints JSON: clients held, latency p50/p99/max,
errors (a failed connection, a non-200 answer, a stream that ended early, a notification that never
came; a client never held counts once, as its connection's error), the API workers' RSS/PSS before and after connecting, per client, and Redis's client count.

The same run measures gthread beside it (``--old-clients``, a list of client counts: ``--threads``
threads per worker, one thread per waiting client), unless ``--old-clients ""``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import platform
import re
import resource
import statistics
import time
from datetime import UTC, datetime
from typing import Any

import psutil
import redis
import requests

from testkit.http_clients import planned_moves
from testkit.processes import running, start_gunicorn

VERSION = re.compile(rb'"version":(\d+)')
SEQ = re.compile(rb'"last_seq":(\d+)')
JSON = {"Content-Type": "application/json"}


def raise_open_files_limit() -> None:
    """One socket per waiting client: lift the soft limit to the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# ---- client processes ---------------------------------------------------------


class Tally:
    """What one client process saw: first arrival of each (game, version) per client, and errors."""

    def __init__(self) -> None:
        self.arrivals: list[tuple[int, int, float]] = []  # (game index, version, time)
        self.errors: dict[str, int] = {}

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


def _request(path: str, token: str | None, extra: str = "") -> bytes:
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    return f"GET {path} HTTP/1.1\r\nHost: bench\r\n{auth}{extra}\r\n".encode()


async def _stream(port: int, game: int, game_id: str, token: str | None, after: int, t: Tally, state: dict) -> None:
    answered = False
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError as error:
        t.error(f"connect_{type(error).__name__}")
        return
    seen = 0
    try:
        writer.write(_request(f"/v1/games/{game_id}/stream", token, f"Last-Event-ID: {after}\r\n"))
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            t.error("stream_status")
            return
        state["connected"] += 1
        answered = True
        buffer = b""
        while not state["stop"]:
            chunk = await reader.read(65536)
            if not chunk:
                if not state["stop"]:
                    t.error("stream_closed_early")
                return
            now = time.time()
            buffer += chunk
            complete, _, buffer = buffer.rpartition(b"\n\n")
            for match in VERSION.finditer(complete):
                version = int(match.group(1))
                if version > seen:
                    seen = version
                    t.arrivals.append((game, version, now))
    except (OSError, asyncio.IncompleteReadError) as error:
        if not state["stop"]:
            t.error(f"stream_{type(error).__name__}")
    except asyncio.CancelledError:
        if not answered:
            t.error("stream_never_answered")
        raise
    finally:
        writer.close()


async def _long_poll(port: int, game: int, game_id: str, token: str | None, after: int, t: Tally, state: dict) -> None:
    wait = state["poll_wait"]
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError as error:
        t.error(f"connect_{type(error).__name__}")
        return
    seen, first = 0, True
    try:
        while not state["stop"]:
            writer.write(_request(f"/v1/games/{game_id}/events?after={after}&wait={wait}", token))
            head = await reader.readuntil(b"\r\n\r\n")
            if first:
                state["connected"] += 1
                first = False
            if not head.startswith(b"HTTP/1.1 200"):
                t.error("poll_status")
                return
            length = int(re.search(rb"(?i)content-length: (\d+)", head).group(1))
            body = await reader.readexactly(length)
            now = time.time()
            for match in VERSION.finditer(body):
                version = int(match.group(1))
                if version > seen:
                    seen = version
                    t.arrivals.append((game, version, now))
            after = int(SEQ.search(body).group(1))
    except (OSError, asyncio.IncompleteReadError) as error:
        if not state["stop"]:
            t.error(f"poll_{type(error).__name__}")
    except asyncio.CancelledError:
        if first:
            t.error("poll_never_answered")
        raise
    finally:
        writer.close()


async def _clients(port: int, plan: list, ramp: float, poll_wait: int, connected, arrived, stop) -> Tally:
    tally, state = Tally(), {"connected": 0, "stop": False, "poll_wait": poll_wait}
    tasks = []
    started = time.monotonic()
    for i, (kind, game, game_id, token, after) in enumerate(plan):
        wait = _stream if kind == "stream" else _long_poll
        tasks.append(asyncio.create_task(wait(port, game, game_id, token, after, tally, state)))
        if i % 50 == 49:  # ramp: ``ramp`` new connections a second
            await asyncio.sleep(max(0.0, started + (i + 1) / ramp - time.monotonic()))
            connected.value = state["connected"]
    while not stop.is_set():
        connected.value, arrived.value = state["connected"], len(tally.arrivals)
        await asyncio.sleep(0.05)
    state["stop"] = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return tally


def _client_process(port: int, plan: list, ramp: float, poll_wait: int, connected, arrived, stop, out) -> None:
    raise_open_files_limit()
    tally = asyncio.run(_clients(port, plan, ramp, poll_wait, connected, arrived, stop))
    out.put((tally.arrivals, tally.errors))


# ---- server side ----------------------------------------------------------------


def pod_memory(master: psutil.Process) -> dict[str, int]:
    rss = pss = 0
    for worker in master.children():
        with contextlib.suppress(psutil.NoSuchProcess):
            info = worker.memory_full_info()
            rss, pss = rss + info.rss, pss + info.pss
    return {"rss": rss, "pss": pss}


def _new_games(base: str, count: int) -> list[tuple[str, list[str], Any, int]]:
    """All-human games: id, seat tokens, the engine's state (to plan the moves) and the last event's seq."""
    from services.engine import make_rules, new_game

    games = []
    http = requests.Session()
    for i in range(count):
        body = {"seats": [{"type": "human"}] * 4, "seed": 1000 + i}
        created = http.post(f"{base}/v1/games", json=body, timeout=30).json()
        last_seq = http.get(f"{base}/v1/games/{created['game_id']}/events", timeout=30).json()["last_seq"]
        state = new_game(make_rules("partnership"), 1000 + i)
        games.append((created["game_id"], [s["token"] for s in created["seats"]], state, last_seq))
    return games


def run_model(args: argparse.Namespace, worker_class: str, clients: int) -> dict[str, Any]:
    env = {
        "API_WORKER_CLASS": worker_class,
        "API_WORKER_CONNECTIONS": str(clients + 1000),
        "AI_ENABLED": "0",
        "RATE_LIMIT_ENABLED": "0",
        "STREAM_MAX_SECONDS": "3600",
        "STREAM_HEARTBEAT_SECONDS": str(args.heartbeat_seconds),
    }
    server, base = start_gunicorn(args.redis_url, workers=args.workers, threads=args.threads, env=env)
    port = int(base.rsplit(":", 1)[1])
    store = redis.Redis.from_url(args.redis_url)
    with running(server):
        games = _new_games(base, args.games)
        plans = [planned_moves(*g[:3]) for g in games]
        master = psutil.Process(server.pid)
        before, redis_before = pod_memory(master), store.info("clients")["connected_clients"]
        seat_cycle = [None, 0, 1, 2, 3]
        everyone = []
        for i in range(clients):
            game = i % len(games)
            game_id, tokens, _, last_seq = games[game]
            seat = seat_cycle[(i // len(games)) % len(seat_cycle)]
            everyone.append(
                ("stream" if i % 2 == 0 else "poll", game, game_id, None if seat is None else tokens[seat], last_seq)
            )
        ctx = mp.get_context("fork")
        stop, out = ctx.Event(), ctx.Queue()
        counters = [ctx.Value("i", 0) for _ in range(args.client_procs)]
        arrived = [ctx.Value("i", 0) for _ in range(args.client_procs)]  # notifications each process got
        procs = [
            ctx.Process(
                target=_client_process,
                args=(port, everyone[k :: args.client_procs], args.ramp / args.client_procs, args.poll_wait),
                kwargs={"connected": counters[k], "arrived": arrived[k], "stop": stop, "out": out},
            )
            for k in range(args.client_procs)
        ]
        for proc in procs:
            proc.start()
        deadline = time.monotonic() + args.connect_seconds
        while sum(c.value for c in counters) < clients and time.monotonic() < deadline:
            time.sleep(0.2)
        held = sum(c.value for c in counters)
        after, redis_after = pod_memory(master), store.info("clients")["connected_clients"]
        sent: dict[tuple[int, int], float] = {}
        http = requests.Session()
        interval, next_at, moved = 1.0 / args.moves_per_second, time.monotonic(), 0
        move_errors = 0
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            game = moved % len(games)
            if plans[game]:
                path, body, headers = plans[game].popleft()
                sent_at = time.time()
                try:
                    answer = http.post(base + path, data=body, headers={**headers, **JSON}, timeout=30)
                    sent[(game, answer.json()["version"])] = sent_at
                except (requests.RequestException, KeyError):  # gthread may leave no thread for a move
                    move_errors += 1
            moved += 1
            next_at += interval
            time.sleep(max(0.0, next_at - time.monotonic()))
        # Until every client has seen its game's moves, or the bound: a notification later than that is missed.
        expected = sum(1 for i in range(clients) for (g, _v) in sent if g == i % len(games))
        settle_by = time.monotonic() + args.settle_seconds
        while sum(a.value for a in arrived) < expected and time.monotonic() < settle_by:
            time.sleep(0.05)
        stop.set()
        arrivals, errors = [], dict.fromkeys(["move"], move_errors)
        for _ in procs:
            got, errs = out.get(timeout=120)
            arrivals += got
            for kind, n in errs.items():
                errors[kind] = errors.get(kind, 0) + n
        for proc in procs:
            proc.join(60)
    latencies = sorted(t - sent[(g, v)] for g, v, t in arrivals if (g, v) in sent)
    errors["missed_notification"] = max(0, expected - len(latencies)) if held == clients else 0  # else see above
    count = len(latencies)
    return {
        "worker_class": worker_class,
        "clients": clients,
        "held": held,
        "moves": len(sent),
        "notifications": count,
        "p50_ms": round(statistics.median(latencies) * 1000, 1) if latencies else None,
        "p99_ms": round(latencies[max(0, int(count * 0.99) - 1)] * 1000, 1) if latencies else None,
        "max_ms": round(latencies[-1] * 1000, 1) if latencies else None,
        "errors": errors,
        "error_total": sum(errors.values()),
        "api_rss_bytes": {"before": before["rss"], "after": after["rss"]},
        "api_pss_bytes": {"before": before["pss"], "after": after["pss"]},
        "pss_per_client_bytes": round((after["pss"] - before["pss"]) / max(1, held)),
        "rss_per_client_bytes": round((after["rss"] - before["rss"]) / max(1, held)),
        "redis_clients": {"before": redis_before, "after": redis_after},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=10000, help="waiting clients on the fan-out hub (gevent)")
    parser.add_argument(
        "--old-clients", default="32,64", help="comma-separated client counts on gthread (empty: skip gthread)"
    )
    parser.add_argument("--threads", type=int, default=32, help="API_THREADS for the gthread runs")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--moves-per-second", type=float, default=5.0)
    parser.add_argument("--seconds", type=float, default=20.0, help="how long games move while clients wait")
    parser.add_argument(
        "--settle-seconds", type=float, default=10.0, help="bound on waiting for the last moves' notifications"
    )
    parser.add_argument("--connect-seconds", type=float, default=120.0, help="bound on connecting every client")
    parser.add_argument(
        "--poll-wait", type=int, default=30, help="a long poll's ?wait=: a client counts as held once first answered"
    )
    parser.add_argument(
        "--heartbeat-seconds",
        type=float,
        default=15.0,
        help="the pod's STREAM_HEARTBEAT_SECONDS: a stream whose client left ends at its next heartbeat",
    )
    parser.add_argument("--client-procs", type=int, default=2)
    parser.add_argument("--ramp", type=float, default=500.0, help="new client connections a second, all processes")
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/1"))
    args = parser.parse_args(argv)
    raise_open_files_limit()
    out: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cores": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "settings": {k: v for k, v in vars(args).items() if k != "redis_url"},
        "goal": {"clients": 10000, "p99_ms": 250, "errors": 0},
    }
    out["fanout_gevent"] = run_model(args, "gevent", args.clients)
    old = [int(n) for n in args.old_clients.split(",") if n.strip()]
    out["thread_per_wait_gthread"] = [run_model(args, "gthread", n) for n in old]
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
