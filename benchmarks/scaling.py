"""Scaling on this machine: 1 vs 2 processes, measured side by side. Prints JSON.

    python -m benchmarks.scaling [--decisions 3000] [--seconds 8] [--redis-db 6]

* AI: the same batch of ``ai.decide`` tasks (standard bids and pro plays from
  random real positions) sent by name through the Redis broker to a Celery
  worker with 1, then 2 pool processes; decisions per second end to end
  (send to result), and the ratio.
* API: ``GET /v1/games/{id}`` (benchmarks.api's client) against gunicorn with
  1, then 2 worker processes; requests per second, and the ratio.

On a 2-core machine the load generator shares the cores with what it
measures, so the ratios are a floor for what two dedicated cores give.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import random
import time
from datetime import UTC, datetime
from typing import Any

import redis
from celery import Celery

from services.engine import apply, legal_moves, make_rules, new_game, turn, view

from .api import measure
from .procs import gunicorn, running, start_worker


def positions(count: int, seed: int = 1) -> list[tuple[dict[str, Any], str]]:
    """``(view, level)`` pairs: the seat to move's view in random real games;
    bids go to standard, plays to pro (the two expensive decisions)."""
    rng = random.Random(seed)
    out: list[tuple[dict[str, Any], str]] = []
    state = new_game(make_rules("partnership"), seed=seed)
    while len(out) < count:
        if state.phase == "game_over":
            state = new_game(make_rules("partnership"), seed=rng.randrange(2**31))
        seat = turn(state)
        seat_view = view(state, seat)
        del seat_view["history"]
        out.append((seat_view, "standard" if state.phase == "bidding" else "pro"))
        state = apply(state, seat, rng.choice(legal_moves(state, seat)))
    return out


def decisions_per_second(
    url: str, batch: list[tuple[dict[str, Any], str]], processes: int, pool: str
) -> dict[str, float]:
    """Worker throughput with ``processes`` processes (one prefork worker with
    that many children, or that many solo workers).

    The workers start warm on an idle queue, the batch is queued, then every
    worker is told to consume the AI queues at once; the load generator only
    waits meanwhile.  The rate is the batch over the span of the results'
    completion times (``date_done``)."""
    idle = ("bench.idle",)
    if pool == "prefork":
        workers = [start_worker(url, queues=idle, concurrency=processes)]
    else:
        workers = [start_worker(url, queues=idle, pool="solo") for _ in range(processes)]
    client = Celery(broker=url, backend=url, set_as_current=False)
    with running(*workers):
        results = [
            client.send_task("ai.decide", kwargs=_kwargs(v, lvl, i), queue=f"ai.{lvl}")
            for i, (v, lvl) in enumerate(batch)
        ]
        for queue in ("ai.pro", "ai.standard"):
            replies = client.control.add_consumer(queue, reply=True, timeout=5)
            assert len(replies) == len(workers), replies
        # Wait without competing for the cores: one MGET of every result key every half second.
        backend = redis.Redis.from_url(url)
        keys = [f"celery-task-meta-{r.id}" for r in results]
        while None in (metas := backend.mget(keys)):
            time.sleep(0.5)
        done = sorted(datetime.fromisoformat(json.loads(m)["date_done"]) for m in metas)
    client.close()
    span = (done[-1] - done[0]).total_seconds()
    # The first result's own time is not in the span: count one decision fewer.
    return {"pool": pool, "processes": processes, "decisions": len(batch), "seconds": round(span, 2),
            "decisions_per_second": round((len(batch) - 1) / span, 1)}  # fmt: skip


def _spin(seconds: float) -> int:
    """Pure-Python busy work for ``seconds``; returns the iterations done."""
    done, stop_at = 0, time.perf_counter() + seconds
    while time.perf_counter() < stop_at:
        for _ in range(10_000):
            done += 1
    return done


def cpu_calibration(seconds: float = 3.0) -> float:
    """How much work two busy processes get done next to one: the ceiling any
    1-vs-2-process ratio can reach on this machine (2.0 on two idle cores)."""
    with mp.get_context("fork").Pool(2) as pool:
        one = pool.apply(_spin, (seconds,))
        two = sum(pool.map(_spin, [seconds, seconds]))
    return round(two / one, 2)


def _kwargs(seat_view: dict[str, Any], level: str, i: int) -> dict[str, Any]:
    return {
        "view": seat_view,
        "level": level,
        "game_id": f"bench-{i}",
        "version": i,
        "seat": seat_view["you"],
        "seed": i,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=3000)
    parser.add_argument("--seconds", type=float, default=8.0, help="per API measurement")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--redis-db", type=int, default=6)
    parser.add_argument("--pool", choices=["solo", "prefork"], default="solo", help="how the AI processes are run")
    args = parser.parse_args()
    url = f"redis://127.0.0.1:6379/{args.redis_db}"
    redis.Redis.from_url(url).flushdb()

    calibration = cpu_calibration()
    batch = positions(args.decisions)
    ai = [decisions_per_second(url, batch, n, args.pool) for n in (1, 2)]
    api = []
    for workers in (1, 2):
        env = {"RATE_LIMIT_ENABLED": "0", "AI_ENABLED": "0"}
        with gunicorn(url, workers=workers, threads=8, env=env) as base:
            port = int(base.rsplit(":", 1)[1])
            measure("127.0.0.1", port, "get_view", args.clients, 2)  # warm-up, discarded
            api.append({"workers": workers, **measure("127.0.0.1", port, "get_view", args.clients, args.seconds)})
    print(
        json.dumps(
            {
                "benchmark": "scaling",
                "date": datetime.now(UTC).isoformat(timespec="seconds"),
                "machine": {"cores": os.cpu_count(), "platform": platform.platform()},
                "cpu_calibration_2_vs_1": calibration,
                "ai": ai,
                "ai_ratio_2_vs_1": round(ai[1]["decisions_per_second"] / ai[0]["decisions_per_second"], 2),
                "api_get_view": api,
                "api_ratio_2_vs_1": round(api[1]["requests_per_s"] / api[0]["requests_per_s"], 2),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
