"""The AI path over 1, 2 and 4 broker nodes on loopback: the spread of decisions and the broker CPU per
decision of each node. Prints JSON.

    python -m benchmarks.broker_nodes [--nodes 1,2,4] [--decisions 8000] [--level easy]

Each node is a private Redis (a free port, no persistence) with one solo worker warm on its level queue, as
``AI_BROKER_URLS`` deploys it.  For each count of nodes, ``--decisions`` ``ai.decide`` tasks, each for its own
game id (a fresh uuid4: a decision a game, so the spread is over as many games as decisions), are sent as the
API sends them: to the node :func:`services.api.ai_seats.brokers.node_of` names, through that node's Celery app
(``services.api.app.celery_init_app``), each result channel subscribed first on that node's listener and the
stored result DELETEd once heard.  Per node: the decisions it carried against its share (``deviation``, goal
within ±10 %), its Redis's own CPU (``INFO cpu``) per decision, and its commands per decision
(``INFO commandstats``); in all, the broker-side CPU per decision of every node together against the one node
(the single Redis of today).  The runs reuse the first nodes' servers and workers, so one node is node 0 alone.

Idle workers cost each node one BRPOP a second; the load generator and the workers share this machine's cores
with the Redis servers, so throughput is not the figure here, CPU per decision is.

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
from services.api.app import sender_backend_url
from services.players import queue_of
from testkit.processes import ROOT, free_port, running, start_redis, start_worker, stop, worker_options

from .host import machine
from .scaling import Collector, _kwargs, _redis_cpu_seconds, api_celery, command_stats, level_mix, positions, stats_diff

SPREAD_GOAL = 0.10  # each node within ±10 % of its share
RESULTS_TIMEOUT = 600.0


def run(urls: list[str], batch: list[tuple[dict[str, Any], str]], queue: str) -> dict[str, Any]:
    """``batch`` over the nodes at ``urls`` (their workers already consume ``queue``); per node and in all."""
    games = [str(uuid.uuid4()) for _ in batch]
    share = [0] * len(urls)
    for game in games:
        share[node_of(game, len(urls))] += 1
    clients = [api_celery(url) for url in urls]
    stats = [redis.Redis.from_url(url) for url in urls]
    collectors = [Collector(url, n) for url, n in zip(urls, share, strict=True)]
    try:
        before = [(command_stats(s), _redis_cpu_seconds(s)) for s in stats]
        started = time.monotonic()
        for i, ((seat_view, level), game) in enumerate(zip(batch, games, strict=True)):
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
        for node, (s, (commands_before, cpu_before)) in enumerate(zip(stats, before, strict=True)):
            cpu = _redis_cpu_seconds(s) - cpu_before
            carried = share[node]
            calls = stats_diff(commands_before, command_stats(s), max(carried, 1))["calls"]
            expected = len(batch) / len(urls)
            nodes.append({
                "node": node,
                "decisions": carried,
                "deviation": round(carried / expected - 1, 4),
                "broker_cpu_s": round(cpu, 3),
                "broker_cpu_us_per_decision": round(cpu / max(carried, 1) * 1e6, 1),
                "broker_calls_per_decision": round(sum(calls.values()), 2),
            })  # fmt: skip
    finally:
        for collector in collectors:
            collector.close()
        for client in clients:
            client.close()
        for s in stats:
            s.close()
    total_cpu = sum(n["broker_cpu_s"] for n in nodes)
    return {
        "nodes": len(urls),
        "decisions": len(batch),
        "seconds": round(seconds, 2),
        "per_node": nodes,
        "max_deviation": max(abs(n["deviation"]) for n in nodes),
        "spread_within_goal": all(abs(n["deviation"]) <= SPREAD_GOAL for n in nodes),
        "total_broker_cpu_us_per_decision": round(total_cpu / len(batch) * 1e6, 1),
    }


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
                runs = [run(urls[:n], batch, queue) for n in counts]
            rabbitmq = run_rabbitmq(args.rabbitmq, urls[0], batch) if args.rabbitmq else None
        finally:
            for server in servers:
                stop(server)
    single = next((r for r in runs if r["nodes"] == 1), runs[0])["total_broker_cpu_us_per_decision"]
    for r in runs:
        r["total_broker_cpu_vs_one_node"] = round(r["total_broker_cpu_us_per_decision"] / single, 2)
    report = {
        "benchmark": "broker_nodes",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cpu": machine(), "cores": os.cpu_count(), "platform": platform.platform()},
        "levels": {"bid": args.level[0], "play": args.level[1]},
        "runs": runs,
        "spread_goal": SPREAD_GOAL,
        "meets_spread_goal": all(r["spread_within_goal"] for r in runs),
    }
    if rabbitmq is not None:
        rabbitmq["total_broker_cpu_vs_one_redis_node"] = round(rabbitmq["total_broker_cpu_us_per_decision"] / single, 2)
        report["rabbitmq_quorum"] = rabbitmq
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
