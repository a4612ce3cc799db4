"""Scaling on this machine: 1 vs 2 processes, measured side by side. Prints JSON.

    python -m benchmarks.scaling [--level hard] [--decisions N] [--seconds 8]
                                 [--redis-port 6379] [--redis-db 6] [--skip-api] [--idle-seconds 5]

* AI: the same batch of ``ai.decide`` tasks (bids and plays from random real
  positions, by ``--level``: ``hard`` by default; ``BID,PLAY`` for a mix,
  e.g. ``standard,pro``) sent by name through the Redis broker to 1, then 2
  Celery worker processes; decisions per second
  end to end (send to result), and the ratio (goal ≥ 1.6).  Sent and heard as
  the API does (its Celery app, a result channel subscribed per task, the
  stored result deleted once heard), and beside each rate what the broker +
  result-backend Redis did per decision: its CPU, and ``INFO commandstats``
  diffed (``broker_redis_calls_per_decision`` by command, robust;
  ``..._usec_...``, noisy), plus the idle workers' own commands per second.
* CPU calibration, beside it in the same run: the *same* batch of decisions
  run in-process (``decide``, no Celery, no Redis) by 1 process, then by 2
  processes at once, each going through the batch from its start for
  ``--calibration-seconds``; the throughput ratio is what this machine itself
  allows two processes for this work at that moment, the ceiling for the
  Celery ratio.  A busy-loop calibration (two loops against one) is printed
  beside it.
* API: ``GET /v1/games/{id}`` (benchmarks.api's client) against gunicorn with
  1, then 2 worker processes; requests per second, and the ratio.

On a 2-core machine the load generator shares the cores with what it
measures, so the ratios are a floor for what two dedicated cores give.
``--decisions`` (default 3,000) is the batch; with hard at its expected
cost (a few ms, up to ~50 ms) one process takes from seconds to minutes.
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
import uuid
from datetime import UTC, datetime
from typing import Any

import redis
from celery import Celery
from flask import Flask

from services.ai_worker import decide, warm_up
from services.api.ai_seats.results import ResultChannels, result_channel
from services.api.app import celery_init_app
from services.api.store.redis_pubsub import RedisSubscription
from services.computers import LEVEL_NAMES, queue_of
from services.engine import apply, legal_moves, make_rules, new_game, turn, view
from testkit.processes import running, start_gunicorn, start_worker

from .api import CpuMeter, measure

Batch = list[tuple[dict[str, Any], str]]  # (the seat to move's view, the level deciding it)
GOAL_AI_RATIO = 1.6
RESULTS_TIMEOUT = 3600.0  # seconds for a whole batch's results (hard at its slowest: minutes)


def level_mix(spec: str) -> tuple[str, str]:
    """``(bid level, play level)`` from ``hard`` or ``standard,pro``."""
    parts = spec.split(",")
    if len(parts) not in (1, 2) or any(p not in LEVEL_NAMES for p in parts):
        raise argparse.ArgumentTypeError(f"{spec!r}: LEVEL or BID_LEVEL,PLAY_LEVEL from {', '.join(LEVEL_NAMES)}")
    return parts[0], parts[-1]


def positions(count: int, seed: int = 1, mix: tuple[str, str] = ("standard", "pro")) -> Batch:
    """``(view, level)`` pairs: the seat to move's view in random real games;
    bids go to ``mix[0]``, plays to ``mix[1]``."""
    rng = random.Random(seed)
    out: list[tuple[dict[str, Any], str]] = []
    state = new_game(make_rules("partnership"), seed=seed)
    while len(out) < count:
        if state.phase == "game_over":
            state = new_game(make_rules("partnership"), seed=rng.randrange(2**31))
        seat = turn(state)
        seat_view = view(state, seat)
        del seat_view["history"]
        out.append((seat_view, mix[0] if state.phase == "bidding" else mix[1]))
        state = apply(state, seat, rng.choice(legal_moves(state, seat)))
    return out


def batch_queue(batch: Batch) -> str:
    """The one queue the batch goes through: the level's own queue, or for a
    mix of levels a bench queue (the task reads its level from its arguments).

    One queue, because switching a worker onto two queues with
    ``add_consumer`` made every task ~25 ms slower here (basic+easy: 37
    tasks/s against ~580 for basic alone), while a worker started on the same
    two queues with the same backlog ran at ~375/s: an artefact of the
    harness's switch, not of serving several queues."""
    levels = {level for _, level in batch}
    return queue_of(levels.pop()) if len(levels) == 1 else "bench.mix"


def api_celery(url: str) -> Celery:
    """The API's own Celery app (``services.api.app.celery_init_app``), so tasks are sent as the API sends them."""
    app = Flask("bench")
    app.config.update(CELERY_BROKER_URL=url, CELERY_RESULT_BACKEND=url, REDIS_URL=url, REDIS_SOCKET_TIMEOUT=5.0)
    return celery_init_app(app)


class Collector:
    """The API's return path: results heard on their own channels
    (:class:`services.api.ai_seats.results.ResultChannels`), each stored result DELETEd
    once heard, as :class:`services.api.ai_seats.driver.AiDriver` does after applying it."""

    def __init__(self, url: str, expected: int) -> None:
        self.client = redis.Redis.from_url(url)
        self.expected = expected
        self.metas: list[dict[str, Any]] = []
        self.done = threading.Event()
        self.channels = ResultChannels(lambda: RedisSubscription(self.client, sharded=False), self._on_message)
        self.channels.start()

    def _on_message(self, data: bytes) -> None:
        meta = json.loads(data)
        self.client.delete(result_channel(meta["task_id"]))
        self.metas.append(meta)
        if len(self.metas) == self.expected:
            self.done.set()

    def close(self) -> None:
        self.channels.stop()
        self.client.close()


def command_stats(client: redis.Redis) -> dict[str, tuple[int, int]]:
    """``INFO commandstats``: command -> (calls, usec)."""
    stats = client.info("commandstats")
    return {name.removeprefix("cmdstat_"): (int(v["calls"]), int(v["usec"])) for name, v in stats.items()}


def stats_diff(
    before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]], per: float
) -> dict[str, dict[str, float]]:
    """Calls and usec of each command between two snapshots, divided by ``per``; the snapshots' own
    ``INFO`` left out."""
    out: dict[str, dict[str, float]] = {"calls": {}, "usec": {}}
    for name, (calls, usec) in sorted(after.items()):
        calls -= before.get(name, (0, 0))[0]
        usec -= before.get(name, (0, 0))[1]
        if name != "info" and calls > 0:
            out["calls"][name] = round(calls / per, 3)
            out["usec"][name] = round(usec / per, 2)
    return out


def decisions_per_second(url: str, batch: Batch, processes: int, pool: str, idle_seconds: float) -> dict[str, Any]:
    """Worker throughput with ``processes`` processes (one prefork worker with
    that many children, or that many solo workers), and what the broker Redis
    did per decision.

    The workers start warm on an idle queue (their idle chatter is counted
    for ``idle_seconds``), the batch is sent as the API sends it (its own
    Celery app, each task's result channel subscribed first), then every
    worker is told to consume the batch's queue (:func:`batch_queue`) at
    once; the load generator hears each result and DELETEs it, as the API
    does.  The rate is the batch over the span of the results' completion
    times (``date_done``).  Redis's ``INFO commandstats`` before and after,
    divided by the decisions, gives the commands per decision (counts are
    exact; usec is as noisy as the machine; the handful of control messages
    that switch the workers' queues are included)."""
    idle = ("bench.idle",)
    if pool == "prefork":
        workers = [start_worker(url, queues=idle, concurrency=processes)]
    else:
        workers = [start_worker(url, queues=idle, pool="solo") for _ in range(processes)]
    client = api_celery(url)
    stats = redis.Redis.from_url(url)
    collector = Collector(url, len(batch))
    with running(*workers):
        queue = batch_queue(batch)
        idle_before = command_stats(stats)
        time.sleep(idle_seconds)  # a measurement window, not a synchronisation
        idle_calls = stats_diff(idle_before, command_stats(stats), idle_seconds * len(workers))["calls"]
        before, redis_cpu_before = command_stats(stats), _redis_cpu_seconds(stats)
        for i, (v, lvl) in enumerate(batch):
            task_id = str(uuid.uuid4())
            collector.channels.subscribe(task_id)  # as AiDispatcher.dispatch: confirmed before the send
            client.send_task("ai.decide", task_id=task_id, kwargs=_kwargs(v, lvl, i), queue=queue)
        replies = client.control.add_consumer(queue, reply=True, timeout=5)
        assert len(replies) == len(workers), replies
        assert collector.done.wait(RESULTS_TIMEOUT), f"{len(collector.metas)} of {len(batch)} results heard"
        redis_cpu = _redis_cpu_seconds(stats) - redis_cpu_before
        per_decision = stats_diff(before, command_stats(stats), len(batch))
    collector.close()
    client.close()
    stats.close()
    done = sorted(datetime.fromisoformat(m["date_done"]) for m in collector.metas)
    span = (done[-1] - done[0]).total_seconds()
    # The first result's own time is not in the span: count one decision fewer.
    return {"pool": pool, "processes": processes, "queue": queue, "decisions": len(batch), "seconds": round(span, 2),
            "decisions_per_second": round((len(batch) - 1) / span, 1),
            # the broker + result backend Redis's own CPU per decision: sends, deliveries, acks, results
            "broker_redis_cpu_us_per_decision": round(redis_cpu / len(batch) * 1e6, 1),
            "broker_redis_calls_per_decision_total": round(sum(per_decision["calls"].values()), 2),
            "broker_redis_calls_per_decision": per_decision["calls"],
            "broker_redis_usec_per_decision": per_decision["usec"],
            "broker_redis_idle_calls_per_worker_second": idle_calls}  # fmt: skip


def _redis_cpu_seconds(client: redis.Redis) -> float:
    info = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def _spin(seconds: float) -> int:
    """Pure-Python busy work for ``seconds``; returns the iterations done."""
    done, stop_at = 0, time.perf_counter() + seconds
    while time.perf_counter() < stop_at:
        for _ in range(10_000):
            done += 1
    return done


def decide_for(batch: Batch, seconds: float) -> int:
    """Decisions of ``batch`` in this process, in order and round again, as a
    Celery worker would make them, for ``seconds``; returns how many were made."""
    done, stop_at = 0, time.perf_counter() + seconds
    while time.perf_counter() < stop_at:
        seat_view, level = batch[done % len(batch)]
        decide(seat_view, level, seed=done % len(batch))
        done += 1
    return done


def decision_calibration(batch: Batch, seconds: float) -> dict[str, Any]:
    """The batch's decisions in-process for ``seconds``: one process alone,
    then two at once, each from the batch's start (the same work, no broker,
    no split to balance).  Their throughput ratio is what this machine gives
    two processes for this very work at that moment (2.0 on two idle cores)."""
    with mp.get_context("fork").Pool(2, initializer=warm_up) as pool:
        pool.starmap(decide_for, [(batch, 0.2)] * 2, chunksize=1)  # both processes up and past first calls
        one = pool.apply(decide_for, (batch, seconds))
        two = pool.starmap(decide_for, [(batch, seconds)] * 2, chunksize=1)
    return {
        "seconds_each": seconds,
        "decisions_1_process": one,
        "decisions_2_processes": two,
        "decisions_per_second_1": round(one / seconds, 1),
        "decisions_per_second_2": round(sum(two) / seconds, 1),
        "ratio_2_vs_1": round(sum(two) / one, 2),
    }


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


def api_requests_per_second(url: str, clients: int, seconds: float) -> list[dict[str, Any]]:
    """``GET`` view throughput of gunicorn with 1, then 2 worker processes."""
    api = []
    for workers in (1, 2):
        env = {"RATE_LIMIT_ENABLED": "0", "AI_ENABLED": "0"}
        process, base = start_gunicorn(url, workers=workers, threads=8, env=env)
        with running(process):
            port, meter = int(base.rsplit(":", 1)[1]), CpuMeter(process, url)
            measure("127.0.0.1", port, "get_view", clients, min(2.0, seconds), meter)  # warm-up, discarded
            api.append({"workers": workers, **measure("127.0.0.1", port, "get_view", clients, seconds, meter)})
    return api


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", type=level_mix, default=("hard", "hard"), help="LEVEL or BID_LEVEL,PLAY_LEVEL")
    parser.add_argument("--decisions", type=int, default=3000, help="the batch of ai.decide tasks")
    parser.add_argument("--seconds", type=float, default=8.0, help="per API measurement")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--redis-host", default="127.0.0.1")
    parser.add_argument("--redis-port", type=int, default=int(os.environ.get("BENCH_REDIS_PORT", "6379")))
    parser.add_argument("--redis-db", type=int, default=6)
    parser.add_argument("--pool", choices=["solo", "prefork"], default="solo", help="how the AI processes are run")
    parser.add_argument("--calibration-seconds", type=float, default=10.0, help="per in-process calibration slice")
    parser.add_argument(
        "--busy-loop-seconds", type=float, default=3.0, help="per busy-loop calibration slice (cpu_calibration_2_vs_1)"
    )
    parser.add_argument("--idle-seconds", type=float, default=5.0, help="idle workers' broker chatter measured")
    parser.add_argument("--skip-api", action="store_true", help="measure the AI and its calibrations only")
    args = parser.parse_args(argv)
    return args


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    url = f"redis://{args.redis_host}:{args.redis_port}/{args.redis_db}"
    redis.Redis.from_url(url).flushdb()

    busy_loop = cpu_calibration(args.busy_loop_seconds)
    batch = positions(args.decisions, mix=args.level)
    calibration = decision_calibration(batch, args.calibration_seconds)
    ai = [decisions_per_second(url, batch, n, args.pool, args.idle_seconds) for n in (1, 2)]
    ai_ratio = round(ai[1]["decisions_per_second"] / ai[0]["decisions_per_second"], 2)
    report: dict[str, Any] = {
        "benchmark": "scaling",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cores": os.cpu_count(), "platform": platform.platform()},
        "levels": {"bid": args.level[0], "play": args.level[1]},
        "decisions": len(batch),
        "cpu_calibration_2_vs_1": busy_loop,
        "cpu_calibration_decisions": calibration,
        "cpu_calibration_decisions_2_vs_1": calibration["ratio_2_vs_1"],
        "ai": ai,
        "ai_ratio_2_vs_1": ai_ratio,
        "ai_ratio_share_of_calibration": round(ai_ratio / calibration["ratio_2_vs_1"], 2),
        "goal_ai_ratio": GOAL_AI_RATIO,
        "meets_goal_ai_ratio": ai_ratio >= GOAL_AI_RATIO,
    }
    if not args.skip_api:
        api = api_requests_per_second(url, args.clients, args.seconds)
        report["api_get_view"] = api
        report["api_ratio_2_vs_1"] = round(api[1]["requests_per_s"] / api[0]["requests_per_s"], 2)
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
