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
4. After the last fault has recovered: ``--settle`` seconds of load with every part up, then the drain: no
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

import requests

from services.engine import turn
from testkit.chaos_faults import KINDS, FaultSettings, Injector, plan
from testkit.chaos_invariants import Stall, Window, judge
from testkit.chaos_load import Load, LoadSettings
from testkit.chaos_observations import Observations
from testkit.chaos_stack import ChaosStack, StackSettings, chaos_stack
from testkit.chaos_stores import StallMonitor, StoreReader, wait_until

from .host import machine

STUCK_MARGIN = 10.0  # a game may wait this long past its AI deadline before it counts as stuck
METRICS = ("spades_ai_decisions_reissued_total", "spades_ai_fallback_moves_total", "spades_record_write_failures_total")


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


def metric_totals(bases: list[str]) -> dict[str, float]:
    """The service's own counts of how it absorbed the faults, summed over the API servers."""
    totals: Counter = Counter()
    for base in bases:
        try:
            text = requests.get(f"{base}/metrics", timeout=10).text
        except requests.RequestException:
            continue
        for line in text.splitlines():
            name = line.split("{", 1)[0].split(" ", 1)[0]
            if name in METRICS:
                totals[name] += float(line.rsplit(" ", 1)[1])
    return {name: totals[name] for name in METRICS}


def computers_idle(reader: StoreReader, game_ids: list[str]) -> bool:
    """No unfinished game of ``game_ids`` is at a computer's turn."""
    for game_id in game_ids:
        record = reader.load(game_id)
        if record is not None and record.state.phase != "game_over":
            seat = turn(record.state)
            if seat is not None and record.seats[seat].type == "ai":
                return False
    return True


def all_over(reader: StoreReader, game_ids: list[str]) -> bool:
    """Every game of ``game_ids`` still in the store is over."""
    return all((record := reader.load(game_id)) is None or record.state.phase == "game_over" for game_id in game_ids)


def longest_waits(stalls: list[Stall], windows: list[Window]) -> dict[str, float]:
    """The longest wait at a computer's turn, overlapping a fault window and not (0: none over the monitor's 2 s)."""
    waits: dict[bool, list[float]] = {True: [], False: []}
    for stall in stalls:
        if stall.computer:
            overlapping = any(w.start <= stall.end and w.end >= stall.start for w in windows)
            waits[overlapping].append(stall.end - stall.start)
    return {
        "overlapping_a_fault_s": round(max(waits[True], default=0.0), 2),
        "outside_faults_s": round(max(waits[False], default=0.0), 2),
    }


def run(args: argparse.Namespace, stack: ChaosStack, started: float) -> dict[str, Any]:
    t0 = time.monotonic()

    def clock() -> float:
        return time.monotonic() - t0

    phases: dict[str, float] = {}

    def phase(name: str, at: float) -> None:
        phases[name] = round(at, 1)
        print(f"chaos: {name} {at:.1f}", file=sys.stderr, flush=True)  # progress; stdout is the JSON

    phase("stack_started_s", t0 - started)
    obs = Observations(clock)
    load_settings = LoadSettings(args.people, args.tables, args.bots, tuple(args.think), args.win_score)
    load = Load(stack.bases, obs, load_settings, args.seed)
    reader = StoreReader(stack.store_client(), stack.database.url)
    monitor = StallMonitor(reader, obs.game_ids, obs.player_active, clock)
    settings = FaultSettings(args.db_outage, args.broker_outage, args.grace)
    injector = Injector(stack, clock, settings, args.seed)
    kinds = tuple(kind.strip() for kind in args.kinds.split(",") if kind.strip())
    schedule = plan(args.faults, args.warmup, max(args.warmup, args.seconds - 5), random.Random(args.seed), kinds)
    cpu = time.process_time()
    load.start()
    monitor.start()
    injector.start(schedule)
    time.sleep(max(0.0, args.seconds - clock()))  # the load's length
    injector.join()
    phase("faults_recovered_s", clock())
    settled = wait_until(stack.settled, 120.0)
    time.sleep(args.settle)  # load with every part up
    phase("settled_s", clock())
    load.stop_creating.set()
    # the games in play played on, until each is over or the drain's bound: on a busy machine a short run's
    # games need longer than on a quiet one, and a run whose games never end shows nothing of the records
    wait_until(lambda: all_over(reader, obs.game_ids()), args.drain)
    phase("drained_s", clock())
    still_running = load.end(bound=30.0)
    cpu = time.process_time() - cpu
    bound = args.ai_deadline + STUCK_MARGIN
    idle = wait_until(lambda: computers_idle(reader, obs.game_ids()), bound + 5)
    stalls = monitor.finish()
    phase("players_stopped_s", clock())
    known = set(obs.game_ids())
    ids = reader.game_ids() | known
    games = {game_id: game for game_id in ids if (game := reader.game(game_id)) is not None}
    finished = {g.game_id: g.version for g in games.values() if g.over}

    def recorded() -> bool:
        rows = {row.game_id: row.version for row in reader.records()}
        return all(rows.get(game_id) == version for game_id, version in finished.items())

    records_written = wait_until(recorded, 3 * args.records_retry + 30)
    rows = reader.records()
    written = {row.game_id: row.version for row in rows}
    unrecorded = {  # where each missing record stands in the outbox: seconds until due (None: no entry)
        game_id: None if (due := reader.outbox_due(game_id)) is None else round(due - time.time(), 1)
        for game_id, version in finished.items()
        if written.get(game_id) != version
    }
    games = {game_id: game for game_id in ids if (game := reader.game(game_id)) is not None}  # as judged
    phase("checked_s", clock())
    end = clock()
    windows = injector.windows(end)
    with obs.lock:
        acks = list({(a.game_id, a.version): a for a in obs.acks}.values())
        errors = list(obs.errors)
    verdicts = judge(acks, games, stalls, rows, errors, windows, bound)
    inside = sum(any(w.holds(e.at) for w in windows) for e in errors)
    by_kind = Counter(kind for e in errors for kind in {w.kind for w in windows if w.holds(e.at)})
    recovered = len(injector.faults) == args.faults and all(f.recovered and not f.error for f in injector.faults)
    return {
        "faults": [fault.as_json() for fault in sorted(injector.faults, key=lambda f: f.start)],
        "fault_kinds": dict(Counter(fault.kind for fault in injector.faults)),
        "windows": [{"kind": w.kind, "start_s": round(w.start, 2), "end_s": round(w.end, 2)} for w in windows],
        "grace_s": args.grace,
        "stuck_bound_s": bound,
        "phases": phases,
        "stack_settled_after_faults": settled is not None,
        "computers_idle_at_end": idle is not None,
        "records_all_written": records_written is not None,
        "unrecorded_games_outbox_due_in_s": unrecorded,
        "load": {
            "games_started": len(known),
            "games_finished": len(finished),
            "games_finished_by_their_players": dict(load.finished),
            "games_in_store_unknown_to_the_load": len(ids - known),
            "moves_acknowledged": len(acks),
            "requests": sum(obs.statuses.values()),
            "statuses": {str(k): v for k, v in sorted(obs.statuses.items())},
            "requests_without_an_answer": obs.connection_failures,
            "5xx_inside_windows": inside,
            "5xx_outside_windows": len(errors) - inside,
            "5xx_by_window_kind": dict(by_kind),  # one inside windows of two kinds counts for each
            "5xx_by_route": dict(Counter(f"{e.status} {e.route}" for e in errors)),
            "players_who_gave_up": dict(obs.left),
            "bot_runner": dict(load.tally.counts),
            "bot_refusals": dict(load.tally.refusals),
            "player_threads_still_running": still_running,
            "longest_wait_at_a_computers_turn": longest_waits(stalls, windows),
            "monitor_samples": monitor.samples,
            "load_generator_cpu_s": round(cpu, 1),  # this process (clients, monitor, injector) over the load
        },
        "service_counters": metric_totals(stack.bases),
        "invariants": {v.name: v.as_json() for v in verdicts},
        "faults_all_recovered": recovered,  # else a window stayed open to the end and hid what it covered
        "passed": recovered and all(v.passed for v in verdicts),
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
