"""A release meets the one before it: a rolling upgrade from the current tree ("old") to a test release ("new")
and back, under the chaos drill's mixed load, then the invariants checked from the stores.  Prints JSON.

    python -m benchmarks.release [--warmup 20] [--gap 10] [--hold 20] [--api-servers 2] [--seed 1] [--keep DIR]
                                 [--old-root PATH]

1. **The releases.** "old" is this checkout; "new" is a copy of it with the overlay of
   :mod:`testkit.release.overlay`: a stored field (``meta.stamp``), an event type (``stamped``), an argument of
   ``ai.decide`` (``deadline_ms``) and a records migration with a backfill (``game_records.rounds``: an expand
   applied at start, a contract by ``--contract``).
2. **The stack** (:mod:`testkit.chaos_stack`, started from "old"): a Redis Cluster for the games, broker nodes
   with a worker each, ``--api-servers`` gunicorn servers behind :class:`testkit.release.rolling.Endpoints` (a
   Service's list of ready servers: each request goes to one of them), a private PostgreSQL for the records.
3. **The load** (:mod:`testkit.chaos_load`): people against computers, a table of four people, bots.
4. **The upgrade**, ``--gap`` seconds of load after each step: each API server replaced by a new one (started,
   listed, the old one unlisted and, ``--prestop`` seconds later as the API's preStop hook has it, stopped with
   SIGTERM: gunicorn's graceful stop and drain; the first one's start applies the expand, as every API process
   migrates at start), each AI worker replaced (a new one started, the old one's warm shutdown), the first
   server first and then the others beside the workers; the contract (the new release's ``python -m
   services.api.records.database --contract``) once no old process is left; ``--hold`` seconds of the new
   release alone.
5. **The rollback**, the same way back: ``--undo-contract`` (the column nullable again), each API server and each
   worker replaced by an old one.  The old release starts on a database the new one migrated, and reads the games
   and the log the new one wrote.
6. The chaos drill's end (:class:`testkit.chaos_run.LoadRun`): ``--settle`` seconds more, the drain (no new
   games, those in play played to their end, at most ``--drain`` s), the players stop, the computers' turns and
   the records finish.  **The invariants**, from the stores: the chaos drill's five (a step's window, its start
   to its end + ``--grace``, stands for a fault's), no turn lost to the clock by a person whose move was sent in
   time, no AI task failed, no stamp dropped, the records right after the contract, every step done.  And **the
   meetings** (:mod:`testkit.release.meetings`): each of the four written by the new release and met by the old
   one; a run where one did not happen proves nothing of it and does not pass.

The exit status is 1 when an invariant fails or a meeting did not happen.  ``--old-root`` runs the old release
from another checkout (``git archive main | tar -x -C DIR``: what the code of that commit does when it meets the
new release); the new one is always this checkout with the overlay.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from testkit.chaos_clocks import ClockWatch, MoveClocks
from testkit.chaos_invariants import Verdict, turns_lost_to_the_clock
from testkit.chaos_load import LoadSettings
from testkit.chaos_observations import Observations
from testkit.chaos_run import Ending, LoadRun
from testkit.chaos_stack import ChaosStack, StackSettings, chaos_stack
from testkit.chaos_stores import LOG_PAGE
from testkit.processes import ROOT
from testkit.release import overlay
from testkit.release.meetings import EventCounts, Results, ResultWatch, StampReader, column_state
from testkit.release.rolling import SERVICE, Endpoints, Rollout, Version

from .host import machine


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add = parser.add_argument
    add("--warmup", type=float, default=20.0, help="seconds of load on the old release before the upgrade")
    add("--gap", type=float, default=10.0, help="seconds of load after each step (the mixed releases serving)")
    add("--hold", type=float, default=20.0, help="seconds of load on the new release alone, before the rollback")
    add("--settle", type=float, default=10.0, help="seconds of load after the rollback")
    add("--drain", type=float, default=60.0, help="at most this long the games in play are played to their end")
    add("--grace", type=float, default=5.0, help="a step's window runs this long past its end")
    add("--prestop", type=float, default=5.0, help="an unlisted API server's seconds before its SIGTERM (preStop)")
    add("--ai-deadline", type=float, default=5.0, help="AI_DECISION_DEADLINE_SECONDS")
    add("--records-retry", type=float, default=10.0, help="RECORDS_RETRY_SECONDS")
    add("--clock-scale", type=float, default=1.0, help="CLOCK_SCALE: the time controls' times multiplied")
    add("--api-servers", type=int, default=2, help="gunicorn servers, replaced one at a time")
    add("--api-workers", type=int, default=2, help="gunicorn workers per server")
    add("--broker-nodes", type=int, default=2, help="broker nodes, a worker each, replaced one at a time")
    add("--people", type=int, default=3, help="threads playing people-against-computers games")
    add("--tables", type=int, default=1, help="tables of four people")
    add("--bots", type=int, default=2, help="bot games at once")
    add("--think", type=float, nargs=2, default=(0.05, 0.3), metavar=("MIN", "MAX"), help="a person's think time")
    add("--win-score", type=int, default=100, help="games to this score (partnership: or down to minus it)")
    add("--seed", type=int, default=1)
    add("--keep", type=Path, default=None, help="keep the stack's directory (its logs) under this one")
    add(
        "--old-root",
        type=Path,
        default=ROOT,
        help="the old release's checkout (default: this one; e.g. an export of main: what today's code does)",
    )
    return parser.parse_args(argv)


def prepare_new_release() -> tuple[Version, dict[str, Any]]:
    """The new release's tree (after the stack's old worker warmed the current tree's kernels, which the new tree
    is seeded with) and its kernels warmed once, so its workers start as fast as the old ones."""
    started = time.monotonic()
    root = overlay.build()
    built = time.monotonic() - started
    overlay.warm_kernels(root)
    return Version("new", root), {"built_s": round(built, 1), "ready_s": round(time.monotonic() - started, 1)}


class Run:
    """One run: the chaos drill's load and end (:class:`testkit.chaos_run.LoadRun`, every request through the
    :class:`Endpoints`), the rollout, and what the meetings saw (see the module docstring)."""

    def __init__(self, args: argparse.Namespace, stack: ChaosStack, new: Version, started: float) -> None:
        self.args, self.stack = args, stack
        self.old, self.new = Version("old", args.old_root.resolve()), new
        self.endpoints = Endpoints(random.Random(args.seed))
        for base in stack.bases:
            self.endpoints.add(base, "old")
        self.moves = MoveClocks()
        self.events = EventCounts(self.endpoints)
        self.reader = StampReader(stack.store_client(), stack.database.url)

        def observations(clock: Callable[[], float]) -> Observations:
            return Observations(clock, route=self.endpoints.route, moves=self.moves, watchers=[self.events])

        settings = LoadSettings(args.people, args.tables, args.bots, tuple(args.think), args.win_score)
        self.drill = LoadRun(stack, settings, args.seed, started, "release", observations, [SERVICE], self.reader)
        self.clock, self.obs = self.drill.clock, self.drill.obs
        self.clock_watch = ClockWatch(self.moves, lambda game: self.reader.store.events_after(game, 0, LOG_PAGE))
        self.results, self.results_lock = Results(), threading.Lock()
        self.watches = [ResultWatch(node.url, self.results, self.results_lock) for node in stack.nodes]
        self.rollout = Rollout(stack, self.endpoints, self.clock, args.grace, args.prestop)
        self.columns: dict[str, dict[str, Any]] = {}
        self.requests_at: dict[str, int] = {}

    def phase(self, name: str) -> None:
        with self.obs.lock:
            self.requests_at[name] = sum(self.obs.statuses.values())
        self.drill.phase(name)

    def column(self, name: str) -> None:
        try:
            self.columns[name] = column_state(self.stack.database.url)
        except Exception as error:  # reported; the run goes on
            self.columns[name] = {"error": f"{type(error).__name__}: {error}"}

    def gap(self) -> None:
        time.sleep(self.args.gap)  # the mixed releases serving: what the step's window is followed by

    def roll(self, to: Version, expand: bool = False) -> None:
        """Every API server and every AI worker replaced by ``to``'s, each kind one at a time (the next one started
        while the last one replaced is still stopping); returns once every replaced process has stopped.  The first
        API server goes first, so the other release's workers serve its tasks for a while; then the other servers
        and the workers roll side by side, as two Deployments do.  ``expand``: the first new server's start
        migrates the records database (the expand), as every API process's does."""
        self.rollout.replace_api_server(0, to)
        if expand:
            self.column("after_expand")
        self.gap()

        def servers() -> None:
            for index in range(1, len(self.stack.servers)):
                self.rollout.replace_api_server(index, to)
                self.gap()

        def workers() -> None:
            for index in range(len(self.stack.nodes)):
                self.rollout.replace_ai_worker(index, to)
                self.gap()

        rolls = [threading.Thread(target=part, name=f"release-roll-{part.__name__}") for part in (servers, workers)]
        for roll in rolls:
            roll.start()
        for roll in rolls:
            roll.join()
        self.rollout.stopped()

    def play(self) -> None:
        for watch in self.watches:
            watch.start()
            watch.started()
        self.drill.start()
        self.clock_watch.start()
        time.sleep(self.args.warmup)
        self.phase("upgrade_started_s")
        self.column("before")
        self.roll(self.new, expand=True)
        self.column("before_contract")  # the rows the old processes wrote meanwhile: NULL
        self.rollout.migration("contract", self.new, "--contract")  # no old process is left
        self.column("after_contract")
        self.phase("upgrade_done_s")
        time.sleep(self.args.hold)
        self.phase("rollback_started_s")
        self.rollout.migration("undo_contract", self.new, "--undo-contract")
        self.column("after_undo_contract")
        self.gap()
        self.roll(self.old)
        self.phase("rollback_done_s")

    def finish(self) -> dict[str, Any]:
        """The drill's end and its invariants (the steps' windows for the faults'), then this run's own."""
        args = self.args
        ending = Ending(args.settle, args.drain, args.ai_deadline, args.records_retry)
        report = self.drill.finish(ending, self.rollout.windows)
        self.clock_watch.finish()
        for game_id in self.reader.game_ids() | set(self.obs.game_ids()):  # every stamp as the end left it
            self.reader.load(game_id)
        for watch in self.watches:
            watch.finish()
        self.column("end")
        invariants = report.pop("invariants")
        invariants["5xx_outside_deploy_windows"] = invariants.pop("5xx_outside_fault_windows")
        verdicts = self.verdicts()
        invariants.update({v.name: v.as_json() for v in verdicts})
        report["invariants"] = invariants
        report["load"].update(self.load_figures(report["phases"]))
        meetings = self.meetings()
        report.update(self.steps_report(report["phases"]), records_database=self.columns, meetings=meetings)
        report["passed"] = report["passed"] and all(v.passed for v in verdicts) and meetings["every_one_happened"]
        return report

    def verdicts(self) -> list[Verdict]:
        lost_to_clock = turns_lost_to_the_clock(self.moves.moves.values())
        contracted = self.columns.get("after_contract", {})
        wrong = contracted.get("rows_null", 1) + contracted.get("rows_wrong", 1) + int(contracted.get("nullable", 1))
        dropped = [f"{game}: {why}" for game, why in self.reader.stamps.dropped.items()]
        failed = [f"{s.kind} {s.release}: {s.error}" for s in self.rollout.steps if s.error]
        return [
            Verdict("turns_lost_to_the_clock_by_a_move_sent_in_time", len(lost_to_clock), not lost_to_clock,
                    lost_to_clock),
            Verdict("ai_tasks_failed", len(self.results.failures), not self.results.failures, self.results.failures),
            Verdict("stamps_dropped", len(dropped), not dropped, dropped),
            Verdict("records_wrong_after_contract", wrong, wrong == 0, [json.dumps(contracted)] if wrong else []),
            Verdict("steps_failed", len(failed), not failed, failed),
        ]  # fmt: skip

    def meetings(self) -> dict[str, Any]:
        stamps = self.reader.stamps.figures()
        with self.results_lock:
            pairs = dict(self.results.by_pair)
        served = dict(self.events.served)
        contracted, end = self.columns.get("after_contract", {}), self.columns.get("end", {})
        wrote = {
            "field_games_stamped": stamps["games_stamped"],
            "event_entries_served": sum(served.values()),
            "argument_answers_of_new_workers": pairs.get("new api, new worker", 0),
            "column_rows_set_by_the_contract_time": contracted.get("rows_set", 0),
        }
        met = {
            "field_games_an_old_process_wrote_after_a_stamp_kept": stamps[
                "games_an_old_process_wrote_after_a_stamp_kept"
            ],
            "event_entries_served_by_old_servers": served.get("old", 0),
            "argument_tasks_of_new_apis_answered_by_old_workers": pairs.get("new api, old worker", 0),
            "column_rows_old_processes_left_null_at_the_end": end.get("rows_null", 0),
            "tasks_of_old_apis_answered_by_new_workers": pairs.get("old api, new worker", 0),
        }
        return {
            "new_release_wrote": wrote,
            "old_release_met": met,
            "answers_by_releases": pairs,
            "stamped_entries_served_by": served,
            "every_one_happened": all(wrote.values()) and all(met.values()),
        }

    def phase_of(self, phases: dict[str, float], at: float) -> str:
        marks = (("before", "upgrade_started_s"), ("upgrade", "upgrade_done_s"),
                 ("new_alone", "rollback_started_s"), ("rollback", "rollback_done_s"))  # fmt: skip
        for name, mark in marks:
            if at < phases.get(mark, float("inf")):
                return name
        return "after"

    def steps_report(self, phases: dict[str, float]) -> dict[str, Any]:
        steps = [s for s in self.rollout.steps if s.end is not None]

        def span(first: str, last: str) -> float | None:
            return round(phases[last] - phases[first], 1) if first in phases and last in phases else None

        def steps_of(name: str) -> float:
            return round(sum(s.end - s.start for s in steps if s.end and self.phase_of(phases, s.start) == name), 1)

        return {
            "steps": [step.as_json() for step in self.rollout.steps],
            "durations_s": {
                "upgrade": span("upgrade_started_s", "upgrade_done_s"),
                "rollback": span("rollback_started_s", "rollback_done_s"),
                "steps_of_the_upgrade": steps_of("upgrade"),
                "steps_of_the_rollback": steps_of("rollback"),
            },
        }

    def load_figures(self, phases: dict[str, float]) -> dict[str, Any]:
        """What this run adds to the drill's figures of the load: by phase, the 5xx's codes, the moves' clocks."""
        with self.obs.lock:
            acks, errors, total = list(self.obs.acks), list(self.obs.errors), sum(self.obs.statuses.values())
        marks = [("before", "load_started_s"), ("upgrade", "upgrade_started_s"), ("new_alone", "upgrade_done_s"),
                 ("rollback", "rollback_started_s"), ("after", "rollback_done_s")]  # fmt: skip
        counts = [self.requests_at.get(mark, 0) for _, mark in marks] + [total]
        moves = list(self.moves.moves.values())
        return {
            "moves_acknowledged_by_phase": dict(Counter(self.phase_of(phases, a.at) for a in acks)),
            "requests_by_phase": {name: counts[i + 1] - counts[i] for i, (name, _) in enumerate(marks)},
            "5xx_by_code": dict(Counter(f"{e.status} {e.code or '?'} {e.route}" for e in errors)),
            "person_moves_timed": len(moves),
            "person_moves_sent_in_time": sum(1 for m in moves if m.in_time),
            "person_moves_sent_after_their_deadline": sum(1 for m in moves if m.deadline_ms and not m.in_time),
            "person_moves_sent_in_time_then_refused": sum(1 for m in moves if m.in_time and m.status in (409, 412)),
            "closest_to_its_deadline_ms": min(
                (m.deadline_ms - m.sent_ms for m in moves if m.in_time and m.deadline_ms), default=None
            ),
        }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.monotonic()
    env = {"RECORDS_RETRY_SECONDS": str(args.records_retry), "CLOCK_SCALE": str(args.clock_scale)}
    old_root = args.old_root.resolve()
    if old_root != ROOT:  # another checkout: its workers start warm too
        overlay.seed_kernel_cache(ROOT, old_root)
        overlay.warm_kernels(old_root)
    settings = StackSettings(args.api_servers, args.api_workers, args.broker_nodes, args.ai_deadline, env, old_root)
    report: dict[str, Any] = {
        "benchmark": "release",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cpu": machine(), "cores": os.cpu_count(), "platform": platform.platform()},
        "command": "python -m benchmarks.release " + " ".join(sys.argv[1:] if argv is None else argv),
        "settings": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
    }
    with chaos_stack(settings, keep=args.keep) as stack:
        report["stack"] = stack.describe()
        stack_up = time.monotonic()
        report["stack_started_s"] = round(stack_up - started, 1)
        new, prepared = prepare_new_release()
        report["new_release"] = {"root": str(new.root), **prepared, "overlay_edits": len(overlay.EDITS),
                                 "overlay_files": sorted(overlay.ADDED)}  # fmt: skip
        run = Run(args, stack, new, started + (time.monotonic() - stack_up))  # the drill's clock: the stack's start
        try:
            run.play()
        except Exception as failure:  # the stores are still judged: what happened is the finding
            report["error"] = f"{type(failure).__name__}: {failure}"
        report.update(run.finish())
    if "error" in report:
        report["passed"] = False
    report["wall_s"] = round(time.monotonic() - started, 1)
    print(json.dumps(report, indent=2))
    return 0 if report["passed"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
