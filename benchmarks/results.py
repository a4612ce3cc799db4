"""AI result deliveries per decision on the result backend: ``python -m benchmarks.results``. Prints JSON.

    python -m benchmarks.results [--processes 1,4] [--games 12] [--level basic]
                                 [--redis-url redis://127.0.0.1:6379/7] [--before-root PATH]

For each P in ``--processes``: one gunicorn with P workers (P API processes, each with its AI result
listener) and one Celery worker on ``--redis-url`` (its database flushed first; the broker and result
backend too), ``--games`` one-round games of four ``--level`` computers (56 decisions each), all at
once, run until every one is over (so nothing is in flight when counting).  Then, from the same Redis
and ``/metrics``:

- ``decisions_applied``: AI moves applied (every game's versions after its first);
- ``publish_calls``: ``PUBLISH`` calls on the server (``INFO commandstats``; the game store uses
  ``SPUBLISH``): one per finished task, and the odd one that is not a result (Celery's own);
- ``pattern_subscribers``: connections subscribed to a pattern (``psub`` in ``CLIENT LIST``) with the
  API up minus without it: each API process that subscribes to ``celery-task-meta-*`` adds one, and
  Redis delivers every result once to each (``PUBSUB NUMPAT`` counts distinct patterns, not subscribers);
- ``received``: results the API processes' listeners received (``spades_ai_results_received_total``,
  by kind), when the served code counts them;
- ``deliveries_per_decision``: result messages delivered to all API processes per decision applied:
  ``received`` when the served code counts them, else ``pattern_subscribers`` (the pattern's
  deliveries, by construction: every decision's result reaches every pattern subscriber).

``--before-root`` also serves the same runs from another checkout (an older commit, e.g. exported with
``git archive``), so before and after come from one command.  Counting messages does not depend on the
machine's load; ``redis_cpu_us_per_decision`` (``INFO cpu`` of the whole server) does, and is noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import redis
import requests
from prometheus_client.parser import text_string_to_metric_families

from services.computers import level_queues
from testkit.processes import ROOT, running, start_gunicorn, start_worker

from .memory import machine


def publishes(client: redis.Redis) -> int:
    return int(client.info("commandstats").get("cmdstat_publish", {}).get("calls", 0))


def redis_cpu(client: redis.Redis) -> float:
    cpu = client.info("cpu")
    return float(cpu["used_cpu_sys"]) + float(cpu["used_cpu_user"])


def pattern_connections(client: redis.Redis) -> int:
    return sum(1 for c in client.client_list() if int(c.get("psub", 0)) > 0)


def received(base: str) -> dict[str, float] | None:
    """``spades_ai_results_received_total`` by kind, summed over the workers; None if not exported."""
    text = requests.get(f"{base}/metrics", timeout=10).text
    found: dict[str, float] | None = None
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "spades_ai_results_received_total":
                found = found or {}
                found[sample.labels["kind"]] = found.get(sample.labels["kind"], 0.0) + sample.value
    return found


ONE_ROUND = {"preset": "partnership", "win_score": 1, "lose_score": -1}  # over after the first round


def progress(http: requests.Session, base: str, game_ids: list[str]) -> tuple[int, bool]:
    """AI moves applied so far (four computer seats: each version after the first), and whether all are over."""
    views = [http.get(f"{base}/v1/games/{g}", timeout=10).json() for g in game_ids]
    return sum(v["version"] - 1 for v in views), all(v["phase"] == "game_over" for v in views)


def run(root: Path, url: str, processes: int, games: int, level: str) -> dict[str, Any]:
    client = redis.Redis.from_url(url)
    client.flushdb()
    worker = start_worker(url, queues=level_queues(level), concurrency=1)  # four computers: the bulk queue
    with running(worker):
        patterns_before = pattern_connections(client)
        env = {"RATE_LIMIT_ENABLED": "0", "API_WORKER_CLASS": "gevent"}
        server, base = start_gunicorn(url, workers=processes, env=env, root=root)
        with running(server):
            http = requests.Session()
            published0, cpu0, received0 = publishes(client), redis_cpu(client), received(base)
            body = {"rules": ONE_ROUND, "seats": [{"type": "ai", "level": level}] * 4}
            game_ids = [
                http.post(f"{base}/v1/games", json={**body, "seed": seed}, timeout=10).json()["game_id"]
                for seed in range(1, games + 1)
            ]
            deadline = time.monotonic() + 600
            while not (done := progress(http, base, game_ids))[1]:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"only {done[0]} decisions in 600 s")
                time.sleep(0.5)
            applied = done[0]
            published = publishes(client) - published0
            cpu = redis_cpu(client) - cpu0
            after = received(base)
            patterns = pattern_connections(client) - patterns_before  # at the end: every listener is up by now
    client.flushdb()
    counted = None
    if after is not None:
        counted = {kind: int(value - (received0 or {}).get(kind, 0.0)) for kind, value in after.items()}
    delivered = sum(counted.values()) if counted is not None else applied * patterns
    return {
        "api_processes": processes,
        "decisions_applied": applied,
        "publish_calls": published,
        "pattern_subscribers": patterns,
        "received": counted,
        "deliveries": delivered,
        "deliveries_per_decision": round(delivered / applied, 3),
        "deliveries_from": "received" if counted is not None else "pattern_subscribers x decisions_applied",
        "redis_cpu_us_per_decision_noisy": round(cpu / applied * 1e6, 1),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", default="1,4", help="API processes (gunicorn workers), comma-separated")
    parser.add_argument("--games", type=int, default=12, help="concurrent one-round games of four computers")
    parser.add_argument("--level", default="basic", help="the computers' level (basic: the cheapest decisions)")
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7"))
    parser.add_argument(
        "--before-root", type=Path, help="also serve the runs from this checkout (e.g. an older commit)"
    )
    args = parser.parse_args(argv)
    roots = {"after": ROOT} if args.before_root is None else {"before": args.before_root, "after": ROOT}
    counts = [int(p) for p in args.processes.split(",")]
    out: dict[str, Any] = {
        "date_utc": datetime.now(UTC).strftime("%Y-%m-%d %H:%M"),
        "machine": machine(),
        "cores": os.cpu_count(),
        "settings": {"games": args.games, "rules": ONE_ROUND, "level": args.level},
        "roots": {name: str(root.resolve()) for name, root in roots.items()},
        "runs": {name: [] for name in roots},
    }
    for p in counts:  # before and after side by side for each P
        for name, root in roots.items():
            out["runs"][name].append(run(root, args.redis_url, p, args.games, args.level))
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
