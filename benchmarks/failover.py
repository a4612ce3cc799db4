"""Failover without loss: kill the master holding a game's slot mid-play; count what was acknowledged and kept.

``python -m benchmarks.failover [--mode restarted|lost|both]`` starts a cluster of 3 masters on loopback
(``TEST_CLUSTER_BASE_PORT``, default 7101), a gunicorn in cluster mode with ``REDIS_WAIT_REPLICAS=1``
(Celery on ``REDIS_URL``, a plain Redis, default 127.0.0.1:6379 database 6), and prints the figures as JSON.
A client plays four human seats of one game, each move with its own ``Idempotency-Key``, retrying a 503 with
the same key.  After ``kill_after`` acknowledged moves the master holding the game's slot is SIGKILLed:

* ``restarted`` (the default): one replica per master; once its replica is promoted the dead node is started
  again and rejoins as the new master's replica (what a StatefulSet does), which is when writes can be
  confirmed by a replica again;
* ``lost``: the master never returns (a machine lost for good).  Two replicas per master: one is promoted, the
  other follows it, and the shard's moves are confirmed again without anyone adding a node;
* ``both``: the two, one after the other, side by side in one JSON.

``seconds_unavailable`` is the gap between the last acknowledgement before the kill and the first after it.
The game is played to the end and every acknowledged move is looked up in the final event log
(:func:`testkit.fault_drills.play_through_failover`, which the API's failover tests run too, asserting none
was lost).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from testkit.fault_drills import play_through_failover
from testkit.processes import free_port, gunicorn
from testkit.redis_cluster import NODE_TIMEOUT_MS, benchmark_celery_url, loopback_cluster

MODES = {"restarted": (1, True), "lost": (2, False)}  # mode -> (replicas per master, killed node restarted)


def measure(mode: str) -> dict[str, Any]:
    replicas, restart = MODES[mode]
    with loopback_cluster(replicas=replicas) as cluster:
        env = cluster.api_env(benchmark_celery_url(), REDIS_WAIT_REPLICAS="1", RATE_LIMIT_ENABLED="0", AI_ENABLED="0")
        with gunicorn(f"redis://127.0.0.1:{free_port()}/0", workers=2, threads=8, env=env) as base:
            figures = play_through_failover(base, cluster, restart=restart)
    return {"mode": mode, "replicas_per_master": replicas, **figures}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=[*MODES, "both"], default="restarted")
    args = parser.parse_args(argv)
    modes = list(MODES) if args.mode == "both" else [args.mode]
    runs = [measure(mode) for mode in modes]
    report: dict[str, Any] = {"benchmark": "failover", "wait_replicas": 1, "node_timeout_ms": NODE_TIMEOUT_MS}
    if len(runs) == 1:
        report.update(runs[0])
    else:
        report["runs"] = runs
        report["seconds_unavailable"] = {run["mode"]: run["seconds_unavailable"] for run in runs}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
