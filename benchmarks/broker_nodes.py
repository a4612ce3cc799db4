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
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
import uuid
from datetime import UTC, datetime
from typing import Any

import redis

from services.api.ai_seats.brokers import node_of
from services.players import queue_of
from testkit.processes import free_port, running, start_redis, start_worker, stop

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


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", default="1,2,4", help="counts of broker nodes, measured in this order")
    parser.add_argument("--decisions", type=int, default=8000, help="decisions (and games) per count of nodes")
    parser.add_argument("--level", type=level_mix, default=("easy", "easy"), help="LEVEL or BID_LEVEL,PLAY_LEVEL")
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
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
