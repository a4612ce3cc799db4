"""Resharding under load: a master added to the games' Redis Cluster and given its slots, then a master emptied
and removed, while games are played; then the chaos drill's invariants, checked from the stores.  Prints JSON.

    python -m benchmarks.reshard [--warmup 20] [--between 20] [--seed 1] [--keep DIR]

1. **The stack** and **the load** of ``benchmarks.chaos`` (:mod:`testkit.chaos_stack`, :mod:`testkit.chaos_load`):
   a Redis Cluster of 3 masters with a replica each (``REDIS_WAIT_REPLICAS=1``), broker nodes with their workers,
   gunicorn servers, PostgreSQL for the records; people against computers, tables of people, bots, and
   ``--resting`` games at rest (created first, then one visited at random at a time for a move: their keys fill
   many slots, as a big store's do).
2. After ``--warmup`` seconds, **add** (:mod:`testkit.cluster_reshard`): a new master and ``--replicas`` replicas
   of it are started and join by docs/operations.md's ``add-master``; ``fill-master`` rebalances the slots over
   the four masters.
3. ``--between`` seconds later, **remove**: one of the three original masters (chosen by ``--seed``) is emptied
   (``empty-master``: its slots rebalanced over the others), then it and its replicas are taken out of the
   cluster (``remove-master``) and stopped.
4. The chaos drill's end (:mod:`testkit.chaos_run`): ``--settle`` seconds more of load, the drain, the players
   stopped, every record written; then the invariants (:mod:`testkit.chaos_invariants`): no acknowledged move
   lost, none applied twice, no game stuck, every finished game recorded once, no 5xx outside the steps' windows
   (a step's first command to its last, plus ``--grace``).

Beside the invariants: each step's slots and keys moved and seconds, what the players saw during each step (the
answers by status, the requests without an answer, the time to answer against the rest of the run), and how
often the API servers sent a store write again because of a slot (``spades_store_slot_retries_total``).  The exit
status is 1 when an invariant fails or a step did.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from testkit import runbook
from testkit.chaos_invariants import Window
from testkit.chaos_load import LoadSettings
from testkit.chaos_observations import Answer
from testkit.chaos_run import Ending, LoadRun, metric_samples
from testkit.chaos_stack import ChaosStack, StackSettings, chaos_stack
from testkit.cluster_reshard import Resharder, Step

from .host import machine

WAITING = ("/events", "/stream")  # routes that wait for the game by design: left out of the times to answer


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add = parser.add_argument
    add("--warmup", type=float, default=20.0, help="seconds of load before a master is added")
    add("--between", type=float, default=20.0, help="seconds of load between the add's end and the removal")
    add("--replicas", type=int, default=1, help="replicas the new master gets (as many as the others have)")
    add("--seed", type=int, default=1)
    add("--grace", type=float, default=5.0, help="a step's window runs this long past its last command")
    add("--ai-deadline", type=float, default=5.0, help="AI_DECISION_DEADLINE_SECONDS")
    add("--records-retry", type=float, default=10.0, help="RECORDS_RETRY_SECONDS")
    add("--settle", type=float, default=10.0, help="seconds of load after the removal")
    add("--drain", type=float, default=30.0, help="at most this many seconds the games in play are played on")
    add("--api-servers", type=int, default=2, help="gunicorn servers (of two workers each)")
    add("--broker-nodes", type=int, default=2, help="AI broker nodes, a worker each")
    add("--people", type=int, default=3, help="threads playing people-against-computers games")
    add("--tables", type=int, default=1, help="tables of four people")
    add("--bots", type=int, default=2, help="bot games at once")
    add("--think", type=float, nargs=2, default=(0.05, 0.3), metavar=("MIN", "MAX"), help="a person's think time")
    add("--win-score", type=int, default=100, help="games to this score (partnership: or down to minus it)")
    add("--resting", type=int, default=1000, help="games at rest: many games, each visited for a move now and then")
    add("--keep", type=Path, default=None, help="keep the stack's directory (its logs) under this one")
    return parser.parse_args(argv)


def quantiles(seconds: list[float]) -> dict[str, float | int]:
    """How many, and the median, 99th percentile and longest, in ms."""
    if not seconds:
        return {"requests": 0}
    ordered = sorted(seconds)

    def at(q: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)

    return {"requests": len(ordered), "p50_ms": at(0.5), "p99_ms": at(0.99), "max_ms": at(1.0)}


def seen(answers: list[Answer], unanswered: list[float], steps: list[Step]) -> dict[str, Any]:
    """What the players saw during each step (its first command to its last) and outside every step."""

    def during(at: float, step: Step) -> bool:
        return step.start <= at <= step.end

    out: dict[str, Any] = {}
    for step in steps:
        inside = [a for a in answers if during(a.at, step)]
        out[step.kind] = {
            "statuses": {str(k): v for k, v in sorted(Counter(a.status for a in inside).items())},
            "5xx": sum(a.status >= 500 for a in inside),
            "requests_without_an_answer": sum(during(at, step) for at in unanswered),
            "time_to_answer": quantiles([a.seconds for a in inside if not a.route.endswith(WAITING)]),
        }
    outside = [a for a in answers if not any(during(a.at, step) for step in steps)]
    out["outside_the_steps"] = {
        "time_to_answer": quantiles([a.seconds for a in outside if not a.route.endswith(WAITING)])
    }
    return out


def run(args: argparse.Namespace, stack: ChaosStack, started: float, work: Path) -> dict[str, Any]:
    load_settings = LoadSettings(args.people, args.tables, args.bots, tuple(args.think), args.win_score, args.resting)
    drill = LoadRun(stack, load_settings, args.seed, started, "reshard")
    resharder = Resharder(stack.cluster, work, drill.clock, args.seed)
    drill.start()
    time.sleep(args.warmup)
    drill.phase("adding_s")
    added = resharder.add(args.replicas)
    drill.phase("added_s")
    if added.error is None:  # else the cluster is left as the failed step left it, for the invariants to judge
        time.sleep(args.between)
        drill.phase("removing_s")
        resharder.remove()
        drill.phase("removed_s")

    def windows(end: float) -> list[Window]:
        return [Window(step.kind, step.start, step.end + args.grace) for step in resharder.steps]

    common = drill.finish(Ending(args.settle, args.drain, args.ai_deadline, args.records_retry), windows)
    with drill.obs.lock:
        answers, unanswered = list(drill.obs.answers), list(drill.obs.unanswered)
    retries = metric_samples(stack.bases, ("spades_store_slot_retries_total",), label="reply")
    masters = len(set(stack.cluster.slot_owners()) - {0})
    steps_ok = len(resharder.steps) == 2 and all(step.error is None for step in resharder.steps) and masters == 3
    return {
        "steps": [step.as_json() for step in resharder.steps],
        "masters_at_the_end": masters,
        "blocks_run": resharder.blocks_run,
        "grace_s": args.grace,
        "seen_during_the_steps": seen(answers, unanswered, resharder.steps),
        "store_writes_sent_again": dict(retries),
        **common,
        "steps_all_done": steps_ok,
        "passed": steps_ok and common["passed"],
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.monotonic()
    stack_settings = StackSettings(
        api_servers=args.api_servers,
        broker_nodes=args.broker_nodes,
        ai_deadline=args.ai_deadline,
        env={"RECORDS_RETRY_SECONDS": str(args.records_retry), "MAX_GAMES_IN_PLAY": "0"},  # the games at rest
    )
    report: dict[str, Any] = {
        "benchmark": "reshard",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cpu": machine(), "cores": os.cpu_count(), "platform": platform.platform()},
        "load_average_at_start": os.getloadavg(),
        "command": "python -m benchmarks.reshard " + " ".join(sys.argv[1:] if argv is None else argv),
        "settings": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
    }
    with runbook.work_dir("spades-reshard-") as work, chaos_stack(stack_settings, keep=args.keep) as stack:
        report["stack"] = stack.describe()
        report.update(run(args, stack, started, work))
    report["load_average_at_end"] = os.getloadavg()
    report["wall_s"] = round(time.monotonic() - started, 1)
    print(json.dumps(report, indent=2))
    return 0 if report["passed"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
