"""Random faults during a mixed load, then the invariants checked from the stores themselves. Prints JSON.

    python -m benchmarks.chaos [--seconds 600] [--faults 20] [--seed 1] [--db-outage 30] [--broker-outage 10]
                               [--kinds api_worker,ai_worker,redis_master,records_db,broker_node]

1. **The stack** (:mod:`testkit.chaos_stack`): a Redis Cluster of 3 masters with a replica each for the games
   (``REDIS_WAIT_REPLICAS=1``), two broker nodes (``AI_BROKER_URLS``) with a Celery worker each, two gunicorn
   servers of two workers, and a private PostgreSQL for the records; every port a free one on loopback.
2. **The load** (:mod:`testkit.chaos_load`) for ``--seconds``: people against computers, tables of four people
   (a thread a seat), and bots through ``spades_client``'s runner; short games (to 100) so many finish.
3. **The faults** (:mod:`testkit.chaos_faults`): ``--faults`` of the five kinds in turn (an API worker, a Celery
   worker mid-decision, a Redis master, the records database for ``--db-outage`` s, a broker node for
   ``--broker-outage`` s), at random times from ``--warmup`` to 5 s before the load's end.
4. After the last fault has recovered (the end every drill on this stack shares, :mod:`testkit.chaos_run`):
   ``--settle`` seconds of load with every part up, then the drain: no
   new games, those in play played on until each is over, for at most ``--drain`` seconds; then the players stop, and the run waits until
   no game is at a computer's turn and every finished game's record is written (both bounded).
5. **The invariants** (:mod:`testkit.chaos_invariants`), read from the Redis Cluster and the records database
   (:mod:`testkit.chaos_stores`): no acknowledged move lost, none applied twice, no game stuck past the AI
   deadline + 10 s (outside fault windows), every finished game recorded once at its final version, no 5xx
   outside a fault's window (its start to its recovery + ``--grace``).

The exit status is 1 when an invariant fails.  ``--keep DIR`` keeps the stack's directory (every process's
log) under DIR.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from testkit.chaos_faults import KINDS, FaultSettings, Injector, plan
from testkit.chaos_load import LoadSettings
from testkit.chaos_run import Ending, LoadRun
from testkit.chaos_stack import ChaosStack, StackSettings, chaos_stack

from .host import machine


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add = parser.add_argument
    add("--seconds", type=float, default=600.0, help="the load's length (faults fall within it)")
    add("--faults", type=int, default=20, help="faults injected, the five kinds in turn")
    add("--seed", type=int, default=1)
    add("--kinds", default=",".join(KINDS), help="the kinds of fault injected, in turn (default: all five)")
    add("--warmup", type=float, default=10.0, help="seconds of load before the first fault may fall")
    add("--db-outage", type=float, default=30.0, help="seconds the records database stays down")
    add("--broker-outage", type=float, default=10.0, help="seconds a broker node stays down")
    add("--grace", type=float, default=5.0, help="a fault's window runs this long past its recovery")
    add("--ai-deadline", type=float, default=5.0, help="AI_DECISION_DEADLINE_SECONDS")
    add("--records-retry", type=float, default=10.0, help="RECORDS_RETRY_SECONDS")
    add("--settle", type=float, default=10.0, help="seconds of load after the last recovery")
    add(
        "--drain",
        type=float,
        default=30.0,
        help="at most this many seconds the games in play are played on, with no new ones, until each is over",
    )
    add("--api-servers", type=int, default=2, help="gunicorn servers (of two workers each)")
    add("--people", type=int, default=3, help="threads playing people-against-computers games")
    add("--tables", type=int, default=1, help="tables of four people")
    add("--bots", type=int, default=2, help="bot games at once")
    add("--think", type=float, nargs=2, default=(0.05, 0.3), metavar=("MIN", "MAX"), help="a person's think time")
    add("--win-score", type=int, default=100, help="games to this score (partnership: or down to minus it)")
    add("--keep", type=Path, default=None, help="keep the stack's directory (its logs) under this one")
    return parser.parse_args(argv)


def run(args: argparse.Namespace, stack: ChaosStack, started: float) -> dict[str, Any]:
    load_settings = LoadSettings(args.people, args.tables, args.bots, tuple(args.think), args.win_score)
    drill = LoadRun(stack, load_settings, args.seed, started, "chaos")
    settings = FaultSettings(args.db_outage, args.broker_outage, args.grace)
    injector = Injector(stack, drill.clock, settings, args.seed)
    kinds = tuple(kind.strip() for kind in args.kinds.split(",") if kind.strip())
    schedule = plan(args.faults, args.warmup, max(args.warmup, args.seconds - 5), random.Random(args.seed), kinds)
    drill.start()
    injector.start(schedule)
    time.sleep(max(0.0, args.seconds - drill.clock()))  # the load's length
    injector.join()
    drill.phase("faults_recovered_s")
    ending = Ending(args.settle, args.drain, args.ai_deadline, args.records_retry)
    common = drill.finish(ending, injector.windows)
    recovered = len(injector.faults) == args.faults and all(f.recovered and not f.error for f in injector.faults)
    return {
        "faults": [fault.as_json() for fault in sorted(injector.faults, key=lambda f: f.start)],
        "fault_kinds": dict(Counter(fault.kind for fault in injector.faults)),
        "grace_s": args.grace,
        **common,
        "faults_all_recovered": recovered,  # else a window stayed open to the end and hid what it covered
        "passed": recovered and common["passed"],
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.monotonic()
    stack_settings = StackSettings(
        api_servers=args.api_servers,
        ai_deadline=args.ai_deadline,
        env={"RECORDS_RETRY_SECONDS": str(args.records_retry)},
    )
    report: dict[str, Any] = {
        "benchmark": "chaos",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cpu": machine(), "cores": os.cpu_count(), "platform": platform.platform()},
        "command": "python -m benchmarks.chaos " + " ".join(sys.argv[1:] if argv is None else argv),
        "settings": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
    }
    with chaos_stack(stack_settings, keep=args.keep) as stack:
        report["stack"] = stack.describe()
        report.update(run(args, stack, started))
    report["wall_s"] = round(time.monotonic() - started, 1)
    print(json.dumps(report, indent=2))
    return 0 if report["passed"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
