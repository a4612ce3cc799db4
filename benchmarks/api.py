"""API throughput vs the framework floor: ``python -m benchmarks.api``.

Starts two gunicorn servers with the same settings (gunicorn.conf.py, ``--worker-class``:
gevent or gthread with API_WORKERS workers x API_THREADS threads) on loopback against the same Redis:

* the service (``services.api.wsgi:app``), measured for ``GET /v1/games/{id}``
  with a seat token and for moves (bids and plays of whole games);
* a bare Flask app whose one endpoint does a single Redis ``GET`` (the floor).

Client processes keep one keep-alive connection each (:mod:`benchmarks.wire`,
a client lean enough not to bias the ratio) and hammer for a fixed time;
prints JSON with requests/s, p50/p99 latency and the service/floor ratios.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing as mp
import os
import platform
import statistics
import subprocess
import tempfile
import time
from collections import deque
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psutil
import redis
from flask import Flask, Response

from testkit.http_clients import auth, planned_moves
from testkit.processes import running, start_gunicorn

from .wire import CLIENTS, Connection

BENCH_KEY = "bench:{floor}:value"


def create_bare_app() -> Flask:
    """The floor: Flask + one Redis GET, nothing else (gunicorn 'benchmarks.api:create_bare_app()')."""

    app = Flask(__name__)
    client = redis.Redis.from_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/1"), socket_timeout=1.0)

    @app.get("/bare")
    def bare() -> Response:
        value = client.get(BENCH_KEY)
        return Response(json.dumps({"value": value.decode() if value else None}), mimetype="application/json")

    return app


# ---- client side -------------------------------------------------------------


def _request(conn: Connection, method: str, path: str, body: Any = None, headers=None) -> tuple[int, bytes]:
    return conn.request(method, path, json.dumps(body).encode() if body is not None else None, headers)


def _new_game(conn) -> tuple[str, list[str], Any]:
    from services.engine import make_rules, new_game

    seed = int.from_bytes(os.urandom(4), "big")
    status, data = _request(conn, "POST", "/v1/games", {"seats": [{"type": "human"}] * 4, "seed": seed})
    assert status == 201, data
    created = json.loads(data)
    return created["game_id"], [s["token"] for s in created["seats"]], new_game(make_rules("partnership"), seed)


def _client(args: tuple[str, int, str, float, str]) -> list[float]:
    """One client process: run ``kind`` for ``seconds``; return latencies (s)."""
    host, port, kind, seconds, client = args
    conn = CLIENTS[client](host, port)
    latencies: list[float] = []
    plan: deque[tuple[str, bytes, dict[str, str]]] = deque()
    if kind == "get_view":
        game_id, tokens, _ = _new_game(conn)
        headers = auth(tokens[0])
        path = f"/v1/games/{game_id}"
    elif kind == "moves":
        plan = planned_moves(*_new_game(conn))
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        if kind == "bare":
            start = time.perf_counter()
            status, _ = _request(conn, "GET", "/bare")
        elif kind == "get_view":
            start = time.perf_counter()
            status, _ = _request(conn, "GET", path, headers=headers)
        else:
            if not plan:  # game over (a game outlasts most slices)
                plan = planned_moves(*_new_game(conn))
            path, body, headers = plan.popleft()
            start = time.perf_counter()
            status, _ = conn.request("POST", path, body, headers)
        latencies.append(time.perf_counter() - start)
        if status != 200:
            raise RuntimeError(f"{kind}: HTTP {status}")
    conn.close()
    return latencies


class CpuMeter:
    """CPU seconds spent by a gunicorn's worker processes and by Redis: what a
    request costs the servers, apart from the load generator's share."""

    def __init__(self, server: subprocess.Popen, redis_url: str) -> None:
        self.master = psutil.Process(server.pid)
        self.redis = redis.Redis.from_url(redis_url)

    def workers(self) -> float:
        total = 0.0
        for worker in self.master.children():
            with contextlib.suppress(psutil.NoSuchProcess):
                times = worker.cpu_times()
                total += times.user + times.system
        return total

    def redis_cpu(self) -> float:
        info = self.redis.info("cpu")
        return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def measure(
    host: str, port: int, kind: str, clients: int, seconds: float, meter: CpuMeter, client: str = "lean"
) -> dict[str, float]:
    workers, redis_cpu = meter.workers(), meter.redis_cpu()
    with mp.get_context("fork").Pool(clients) as pool:
        started = time.perf_counter()
        results = pool.map(_client, [(host, port, kind, seconds, client)] * clients)
        elapsed = time.perf_counter() - started
    workers, redis_cpu = meter.workers() - workers, meter.redis_cpu() - redis_cpu
    latencies = sorted(x for r in results for x in r)
    count = len(latencies)
    return {
        "requests": count,
        "requests_per_s": round(count / seconds, 1),
        "p50_ms": round(statistics.median(latencies) * 1000, 2),
        "p99_ms": round(latencies[int(count * 0.99) - 1] * 1000, 2),
        "wall_s": round(elapsed, 1),
        "server_cpu_us": round(workers / count * 1e6),  # per request (game creation included for moves)
        "redis_cpu_us": round(redis_cpu / count * 1e6),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="length of one measurement slice")
    parser.add_argument("--rounds", type=int, default=5, help="slices of each kind, interleaved")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--client", choices=sorted(CLIENTS), default="lean", help="load generator's HTTP client")
    parser.add_argument("--worker-class", choices=["gevent", "gthread"], default="gevent", help="API_WORKER_CLASS")
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/1"))
    parser.add_argument(
        "--access-log",
        action="store_true",
        help="the service writes its JSON access log (LOG_LEVEL=INFO, as deployed by default) to a temporary file; "
        "by default it runs at WARNING, without one, like the floor",
    )
    args = parser.parse_args(argv)
    env = {"RATE_LIMIT_ENABLED": "0", "AI_ENABLED": "0", "API_WORKER_CLASS": args.worker_class}
    service_env = {**env, "LOG_LEVEL": "INFO"} if args.access_log else env
    settings = {"workers": args.workers, "threads": args.threads}
    bare = {"app": "benchmarks.api:create_bare_app()", "ready_path": "/bare"}
    out: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cores": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "settings": {**settings, "worker_class": args.worker_class, "clients": args.clients, "client": args.client, "slice_seconds": args.seconds,
                     "rounds": args.rounds, "service_access_log": args.access_log},
    }  # fmt: skip
    # This machine is shared and its speed drifts by 2x or more over a minute, so the
    # floor and the service run side by side and are measured in interleaved slices;
    # each round's ratio compares slices taken seconds apart, and the median is reported.
    kinds = {"bare": "floor_bare_redis_get", "get_view": "get_view", "moves": "moves"}
    slices: dict[str, list[dict[str, float]]] = {name: [] for name in kinds.values()}
    floor_server, floor_base = start_gunicorn(args.redis_url, env=env, **bare, **settings)
    with running(floor_server), tempfile.TemporaryDirectory(prefix="spades-bench-") as log_dir:
        log_path = Path(log_dir) / "service.log" if args.access_log else None
        service, service_base = start_gunicorn(args.redis_url, env=service_env, log_path=log_path, **settings)
        with running(service):
            targets = {
                "bare": (int(floor_base.rsplit(":", 1)[1]), CpuMeter(floor_server, args.redis_url)),
                "get_view": (int(service_base.rsplit(":", 1)[1]), CpuMeter(service, args.redis_url)),
            }
            targets["moves"] = targets["get_view"]
            for kind, (port, meter) in targets.items():  # warm-up, discarded: 1 s, or a slice if shorter
                measure("127.0.0.1", port, kind, args.clients, min(1.0, args.seconds), meter, args.client)
            for _ in range(args.rounds):
                for kind, (port, meter) in targets.items():
                    result = measure("127.0.0.1", port, kind, args.clients, args.seconds, meter, args.client)
                    slices[kinds[kind]].append(result)
        if log_path is not None:  # the lines really written (warm-up and game creation included)
            out["service_access_log_lines"] = sum(1 for line in log_path.open() if '"services.api.access"' in line)
    for name, results in slices.items():
        out[name] = {
            "requests_per_s_median": statistics.median(r["requests_per_s"] for r in results),
            "requests_per_s_slices": [r["requests_per_s"] for r in results],
            "p50_ms_median": statistics.median(r["p50_ms"] for r in results),
            "p99_ms_median": statistics.median(r["p99_ms"] for r in results),
            "server_cpu_us_per_request_median": statistics.median(r["server_cpu_us"] for r in results),
            "redis_cpu_us_per_request_median": statistics.median(r["redis_cpu_us"] for r in results),
        }
    floor = slices["floor_bare_redis_get"]
    for name in ("get_view", "moves"):
        ratios = [s["requests_per_s"] / f["requests_per_s"] for s, f in zip(slices[name], floor, strict=True)]
        out[f"ratio_{name}_to_floor"] = round(statistics.median(ratios), 3)
        out[f"ratio_{name}_to_floor_per_round"] = [round(r, 3) for r in ratios]
        # the same question asked of CPU: floor's server CPU per request / the service's
        cpu = [f["server_cpu_us"] / s["server_cpu_us"] for s, f in zip(slices[name], floor, strict=True)]
        out[f"cpu_ratio_{name}_to_floor"] = round(statistics.median(cpu), 3)
    out["goal_ratio"] = 0.5
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
