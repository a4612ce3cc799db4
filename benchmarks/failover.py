"""Failover without loss: kill the master holding a game's slot mid-play; count what was acknowledged and kept.

``python -m benchmarks.failover`` starts a 3-master, 3-replica cluster on
loopback (``TEST_CLUSTER_BASE_PORT``, default 7101), a gunicorn in cluster mode
with ``REDIS_WAIT_REPLICAS=1`` (Celery on ``REDIS_URL``, a plain Redis, default
127.0.0.1:6379 database 6), and prints the figures as JSON.  A client plays
four human seats of one game, each move with its own ``Idempotency-Key``,
retrying a 503 with the same key.  After ``kill_after`` acknowledged moves the
master holding the game's slot is SIGKILLed; once its replica is promoted the
dead node is started again and rejoins as the new master's replica (what a
StatefulSet does), which is when writes can be confirmed by a replica again.
The game is played to the end and every acknowledged move is looked up in the
final event log (:func:`testkit.fault_drills.play_through_failover`, which the
API's failover test runs too, asserting none was lost).
"""

from __future__ import annotations

import argparse
import json

from testkit.fault_drills import play_through_failover
from testkit.processes import free_port, gunicorn
from testkit.redis_cluster import benchmark_celery_url, loopback_cluster


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)  # --help, and no stray flags
    with loopback_cluster() as cluster:
        env = cluster.api_env(benchmark_celery_url(), REDIS_WAIT_REPLICAS="1", RATE_LIMIT_ENABLED="0", AI_ENABLED="0")
        with gunicorn(f"redis://127.0.0.1:{free_port()}/0", workers=2, threads=8, env=env) as base:
            figures = play_through_failover(base, cluster)
    print(json.dumps({"benchmark": "failover", "wait_replicas": 1, **figures}, indent=2))


if __name__ == "__main__":
    main()
