"""The AI path over 1, 2 and 4 broker nodes on loopback: the spread of decisions and the broker CPU per
decision of each node. Prints JSON.

    python -m benchmarks.broker_nodes [--nodes 1,2,4] [--decisions 8000] [--level easy] [--repeat 3]

Each node is a private Redis (a free port, no persistence) with one solo worker warm on its level queue, as
``AI_BROKER_URLS`` deploys it.  For each count of nodes, ``--decisions`` ``ai.decide`` tasks, each for its own
game id (a fresh uuid4: a decision a game, so the spread is over as many games as decisions), are sent as the
API sends them: to the node :func:`services.api.ai_seats.brokers.node_of` names, through that node's Celery app
(``services.api.app.celery_init_app``), each result channel subscribed first on that node's listener and the
stored result DELETEd once heard.  Per node: the decisions it carried against its share (``deviation``, goal
within ±10 %), its Redis's own CPU (``INFO cpu``) per decision, and its commands per decision
(``INFO commandstats``); in all, the broker-side CPU per decision of every node together against the one node
(the single Redis of today).  The runs reuse the first nodes' servers and workers, so one node is node 0 alone.

Every node also spends CPU when nothing is sent (its timers, ``hz`` 10, and its idle worker's BRPOP, one a
second): before each run an idle window (``--idle-seconds``) measures that rate per node, and each figure is
printed as measured and less that idle rate over the run's seconds (``_less_idle``): the cost of the decisions
themselves, beside a fixed cost per node.  A Redis handles every command ready when its event loop wakes, so
the CPU per command falls as its load rises: ``commands_per_wakeup`` (commands over the process's voluntary
context switches) shows the batching, and ``--rate-per-node`` offers each node the same load whatever the
count of nodes (flat out, the total load is the machine's, split between the nodes).  ``--repeat``
interleaves the counts (1, 2, 4, 1, 2, 4, …) and ``summary`` gives each count's medians and their ratios to
one node's.  The load generator and the workers share this machine's cores with the Redis servers, so
throughput is not the figure here, CPU per decision is.

``--rabbitmq amqp://guest:guest@127.0.0.1:5672//`` adds the other candidate, measured the same way: the tasks on
a RabbitMQ quorum queue (a fresh one, deleted after; the worker is ``benchmarks.quorum_worker``), the results on
a Redis as today; the broker's CPU is the RabbitMQ server's (``beam.smp``, read with psutil: the machine's
RabbitMQ must be otherwise idle), beside the result Redis's.  A one-node RabbitMQ replicates nothing, so its
figure is a floor for a three-node quorum queue, which writes each message to a majority.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from typing import Any

import psutil
import redis
from celery import Celery

from services.api.ai_seats.brokers import node_of
from services.api.ai_seats.senders import sender_backend_url
from services.computers import queue_of
from testkit.processes import ROOT, free_port, running, start_redis, start_worker, stop, worker_options

from .host import machine
from .scaling import Collector, _kwargs, _redis_cpu_seconds, api_celery, command_stats, level_mix, positions, stats_diff

SPREAD_GOAL = 0.10  # each node within ±10 % of its share
RESULTS_TIMEOUT = 600.0


def idle_cpu_per_second(stats: list[redis.Redis], seconds: float) -> list[float]:
    """Each Redis's CPU seconds per second while nothing is sent: its timers and the idle worker's polls."""
    before = [_redis_cpu_seconds(s) for s in stats]
    started = time.monotonic()
    time.sleep(seconds)  # a measuring window, not a wait for anything
    elapsed = time.monotonic() - started
    return [(_redis_cpu_seconds(s) - b) / elapsed for s, b in zip(stats, before, strict=True)]


def wakeups(client: redis.Redis) -> int:
    """The Redis process's voluntary context switches: each one an event-loop pass that found nothing ready."""
    return psutil.Process(int(client.info("server")["process_id"])).num_ctx_switches().voluntary


def run(
    urls: list[str],
    batch: list[tuple[dict[str, Any], str]],
    queue: str,
    idle_seconds: float,
    rate_per_node: float = 0.0,
) -> dict[str, Any]:
    """``batch`` over the nodes at ``urls`` (their workers already consume ``queue``); per node and in all.

    ``rate_per_node`` (decisions a second, 0 = as fast as the machine goes) paces the sends so that every node
    is offered the same load whatever the count of nodes."""
    games = [str(uuid.uuid4()) for _ in batch]
    share = [0] * len(urls)
    for game in games:
        share[node_of(game, len(urls))] += 1
    clients = [api_celery(url) for url in urls]
    stats = [redis.Redis.from_url(url) for url in urls]
    collectors = [Collector(url, n) for url, n in zip(urls, share, strict=True)]
    try:
        idle = idle_cpu_per_second(stats, idle_seconds)
        before = [(command_stats(s), _redis_cpu_seconds(s), wakeups(s)) for s in stats]
        interval = 1.0 / (rate_per_node * len(urls)) if rate_per_node else 0.0
        started = time.monotonic()
        for i, ((seat_view, level), game) in enumerate(zip(batch, games, strict=True)):
            if interval and (ahead := started + i * interval - time.monotonic()) > 0:
                time.sleep(ahead)  # pacing the load, not waiting for anything
            node = node_of(game, len(urls))
            task_id = str(uuid.uuid4())
            collectors[node].channels.subscribe(task_id)  # as AiDispatcher.dispatch: confirmed before the send
            kwargs = _kwargs(seat_view, level, i) | {"game_id": game}
            clients[node].send_task("ai.decide", task_id=task_id, kwargs=kwargs, queue=queue)
        for collector in collectors:
            heard = collector.done.wait(RESULTS_TIMEOUT) or collector.expected == 0
            assert heard, f"{len(collector.metas)} of {collector.expected} results heard"
        seconds = time.monotonic() - started
        nodes = []
        for node, (s, (commands_before, cpu_before, wakeups_before)) in enumerate(zip(stats, before, strict=True)):
            cpu = _redis_cpu_seconds(s) - cpu_before
            passes = max(wakeups(s) - wakeups_before, 1)
            idle_during_run = idle[node] * seconds
            carried = share[node]
            calls = stats_diff(commands_before, command_stats(s), max(carried, 1))["calls"]
            expected = len(batch) / len(urls)
            nodes.append({
                "node": node,
                "decisions": carried,
                "deviation": round(carried / expected - 1, 4),
                "broker_cpu_s": round(cpu, 3),
                "broker_cpu_us_per_decision": round(cpu / max(carried, 1) * 1e6, 1),
                "idle_cpu_us_per_s": round(idle[node] * 1e6, 1),
                "broker_cpu_us_per_decision_less_idle": round((cpu - idle_during_run) / max(carried, 1) * 1e6, 1),
                "broker_calls_per_decision": round(sum(calls.values()), 2),
                "commands_per_wakeup": round(sum(calls.values()) * carried / passes, 2),
            })  # fmt: skip
    finally:
        for collector in collectors:
            collector.close()
        for client in clients:
            client.close()
        for s in stats:
            s.close()
    total_cpu = sum(n["broker_cpu_s"] for n in nodes)
    total_idle = sum(idle) * seconds
    return {
        "nodes": len(urls),
        "decisions": len(batch),
        "rate_per_node": rate_per_node or None,
        "seconds": round(seconds, 2),
        "per_node": nodes,
        "max_deviation": max(abs(n["deviation"]) for n in nodes),
        "spread_within_goal": all(abs(n["deviation"]) <= SPREAD_GOAL for n in nodes),
        "total_broker_cpu_us_per_decision": round(total_cpu / len(batch) * 1e6, 1),
        "total_idle_cpu_us_per_decision": round(total_idle / len(batch) * 1e6, 1),
        "total_broker_cpu_us_per_decision_less_idle": round((total_cpu - total_idle) / len(batch) * 1e6, 1),
    }


def summary(runs: list[dict[str, Any]], counts: list[int]) -> list[dict[str, Any]]:
    """Per count of nodes, the median over the repeats of each total, and its ratio to one node's median."""
    rows = []
    for n in counts:
        mine = [r for r in runs if r["nodes"] == n]
        rows.append({
            "nodes": n,
            "repeats": len(mine),
            "total_broker_cpu_us_per_decision": statistics.median([r["total_broker_cpu_us_per_decision"] for r in mine]),
            "total_broker_cpu_us_per_decision_less_idle": statistics.median(
                [r["total_broker_cpu_us_per_decision_less_idle"] for r in mine]
            ),
            "idle_cpu_us_per_s_per_node": statistics.median(
                [node["idle_cpu_us_per_s"] for r in mine for node in r["per_node"]]
            ),
        })  # fmt: skip
    one = next((row for row in rows if row["nodes"] == 1), rows[0])
    for row in rows:
        for key, ratio in (
            ("total_broker_cpu_us_per_decision", "total_broker_cpu_vs_one_node"),
            ("total_broker_cpu_us_per_decision_less_idle", "total_broker_cpu_less_idle_vs_one_node"),
        ):
            row[ratio] = round(row[key] / one[key], 3)
    return rows


def rabbitmq_cpu_seconds() -> float:
    """CPU seconds of the RabbitMQ server on this machine (its Erlang VM, ``beam.smp``)."""
    beams = [p for p in psutil.process_iter(["name"]) if (p.info["name"] or "").startswith("beam")]
    if not beams:
        raise RuntimeError("no RabbitMQ server (beam.smp) on this machine")
    return sum(p.cpu_times().user + p.cpu_times().system for p in beams)


def start_quorum_worker(amqp: str, results: str, queue: str) -> subprocess.Popen:
    """An AI worker on ``queue`` (a quorum queue on ``amqp``), results to the Redis ``results``; once it pings."""
    name = f"q{uuid.uuid4().hex[:8]}@bench"
    env = {**os.environ, "CELERY_BROKER_URL": amqp, "CELERY_RESULT_BACKEND": results}
    cmd = [
        sys.executable, "-m", "celery", "-A", "benchmarks.quorum_worker", "worker", "-Q", queue, "-n", name,
        "--pool", "solo", "--prefetch-multiplier", "1", "--loglevel", "WARNING", *worker_options(),
    ]  # fmt: skip
    process = subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True, stdout=sys.stderr)
    client = Celery(broker=amqp, set_as_current=False)
    try:
        deadline = time.monotonic() + 120
        while not client.control.ping(destination=[name], timeout=0.5):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the quorum-queue worker did not start")
        return process
    except Exception:
        stop(process)
        raise
    finally:
        client.close()


def run_rabbitmq(amqp: str, results: str, batch: list[tuple[dict[str, Any], str]]) -> dict[str, Any]:
    """``batch`` through a RabbitMQ quorum queue, results on the Redis ``results``: each server's CPU a decision."""
    queue = f"bench.quorum.{uuid.uuid4().hex[:8]}"
    sender = Celery("bench", broker=amqp, backend=sender_backend_url(results), set_as_current=False)
    sender.conf.update(task_create_missing_queue_type="quorum", task_serializer="json", accept_content=["json"])
    worker = start_quorum_worker(amqp, results, queue)
    stats = redis.Redis.from_url(results)
    collector = Collector(results, len(batch))
    try:
        with running(worker):
            commands_before, redis_before, beam_before = (
                command_stats(stats),
                _redis_cpu_seconds(stats),
                rabbitmq_cpu_seconds(),
            )
            for i, (seat_view, level) in enumerate(batch):
                task_id = str(uuid.uuid4())
                collector.channels.subscribe(task_id)
                sender.send_task("ai.decide", task_id=task_id, kwargs=_kwargs(seat_view, level, i), queue=queue)
            assert collector.done.wait(RESULTS_TIMEOUT), f"{len(collector.metas)} of {len(batch)} results heard"
            beam = rabbitmq_cpu_seconds() - beam_before
            result_cpu = _redis_cpu_seconds(stats) - redis_before
            calls = stats_diff(commands_before, command_stats(stats), len(batch))["calls"]
    finally:
        collector.close()
        with sender.connection_for_write() as conn:
            conn.default_channel.queue_delete(queue)
        sender.close()
        stats.close()
    return {
        "candidate": "rabbitmq quorum queue (one node) + Redis results",
        "decisions": len(batch),
        "rabbitmq_cpu_us_per_decision": round(beam / len(batch) * 1e6, 1),
        "result_redis_cpu_us_per_decision": round(result_cpu / len(batch) * 1e6, 1),
        "result_redis_calls_per_decision": round(sum(calls.values()), 2),
        "total_broker_cpu_us_per_decision": round((beam + result_cpu) / len(batch) * 1e6, 1),
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", default="1,2,4", help="counts of broker nodes, measured in this order")
    parser.add_argument("--decisions", type=int, default=8000, help="decisions (and games) per count of nodes")
    parser.add_argument("--level", type=level_mix, default=("easy", "easy"), help="LEVEL or BID_LEVEL,PLAY_LEVEL")
    parser.add_argument("--repeat", type=int, default=1, help="runs per count of nodes, interleaved (1,2,4,1,2,4…)")
    parser.add_argument(
        "--rate-per-node", type=float, default=0.0, help="decisions a second offered to each node (0: flat out)"
    )
    parser.add_argument("--idle-seconds", type=float, default=5.0, help="idle window before each run")
    parser.add_argument("--rabbitmq", default="", help="also measure RabbitMQ quorum queues at this amqp:// URL")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    counts = [int(n) for n in args.nodes.split(",")]
    levels = set(args.level)
    queue = queue_of(levels.pop()) if len(levels) == 1 else "bench.mix"
    batch = positions(args.decisions, mix=args.level)
    ports = [free_port() for _ in range(max(counts))]
    urls = [f"redis://127.0.0.1:{port}/0" for port in ports]
    with tempfile.TemporaryDirectory() as data_dir:
        servers = [start_redis(port, data_dir, appendonly=False) for port in ports]
        try:
            workers = [start_worker(url, queues=(queue,), pool="solo") for url in urls]
            with running(*workers):
                runs = [
                    run(urls[:n], batch, queue, args.idle_seconds, args.rate_per_node)
                    for _ in range(args.repeat)
                    for n in counts
                ]
            rabbitmq = run_rabbitmq(args.rabbitmq, urls[0], batch) if args.rabbitmq else None
        finally:
            for server in servers:
                stop(server)
    rows = summary(runs, counts)
    single = next((row["total_broker_cpu_us_per_decision"] for row in rows if row["nodes"] == 1), None)
    report = {
        "benchmark": "broker_nodes",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cpu": machine(), "cores": os.cpu_count(), "platform": platform.platform()},
        "levels": {"bid": args.level[0], "play": args.level[1]},
        "runs": runs,
        "summary": rows,
        "spread_goal": SPREAD_GOAL,
        "meets_spread_goal": all(r["spread_within_goal"] for r in runs),
    }
    if rabbitmq is not None and single:
        rabbitmq["total_broker_cpu_vs_one_redis_node"] = round(rabbitmq["total_broker_cpu_us_per_decision"] / single, 2)
        report["rabbitmq_quorum"] = rabbitmq
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
