"""A drill's run on the chaos stack: the mixed load started, then, once the drill's own disturbances are over,
the end every drill shares and the invariants judged (``benchmarks.chaos``, ``benchmarks.reshard``).

:meth:`LoadRun.start` starts the load (:mod:`testkit.chaos_load`) and the stall monitor; the drill then does what
it does (faults, resharding) on :meth:`LoadRun.clock`'s time.  :meth:`LoadRun.finish` waits until every part of
the stack is up, runs ``settle`` seconds more of load, drains (no new games; those in play played on until each
is over, for at most ``drain`` seconds), stops the players, waits until no game is at a computer's turn and every
finished game's record is written (both bounded), then reads the stores and judges the invariants
(:mod:`testkit.chaos_invariants`) against the drill's windows.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import requests

from services.engine import turn

from .chaos_invariants import Stall, Window, judge
from .chaos_load import Load, LoadSettings
from .chaos_observations import Observations
from .chaos_stack import ChaosStack
from .chaos_stores import StallMonitor, StoreReader, wait_until

STUCK_MARGIN = 10.0  # a game may wait this long past its AI deadline before it counts as stuck
METRICS = (
    "spades_ai_decisions_reissued_total",
    "spades_ai_fallback_moves_total",
    "spades_record_write_failures_total",
    "spades_service_outages_total",  # gaps in the heartbeat: time given back to the turn clocks
)


@dataclass
class Ending:
    """How a run ends (see the module docstring)."""

    settle: float = 10.0
    drain: float = 30.0
    ai_deadline: float = 5.0  # the stack's AI_DECISION_DEADLINE_SECONDS
    records_retry: float = 10.0  # the stack's RECORDS_RETRY_SECONDS


def metric_samples(bases: list[str], names: tuple[str, ...], label: str | None = None) -> Counter:
    """The service's own counters, summed over the API servers: by name, or with ``label`` by that label's value
    (one name)."""
    totals: Counter = Counter()
    for base in bases:
        try:
            text = requests.get(f"{base}/metrics", timeout=10).text
        except requests.RequestException:
            continue
        for line in text.splitlines():
            name = line.split("{", 1)[0].split(" ", 1)[0]
            if name in names:
                key = name
                if label is not None:
                    key = line.split(f'{label}="', 1)[1].split('"', 1)[0] if f'{label}="' in line else ""
                totals[key] += float(line.rsplit(" ", 1)[1])
    return totals


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
    """The longest wait at a computer's turn, overlapping a window and not (0: none over the monitor's 2 s)."""
    waits: dict[bool, list[float]] = {True: [], False: []}
    for stall in stalls:
        if stall.computer:
            overlapping = any(w.start <= stall.end and w.end >= stall.start for w in windows)
            waits[overlapping].append(stall.end - stall.start)
    return {
        "overlapping_a_window_s": round(max(waits[True], default=0.0), 2),
        "outside_windows_s": round(max(waits[False], default=0.0), 2),
    }


class LoadRun:
    """The load, the store reader and the stall monitor of one drill (see the module docstring).  A drill may give
    its own ``observations`` (made on :meth:`clock`: a drill whose servers come and go routes the requests),
    ``bases`` (the addresses the load sends to; the stack's servers by default) and ``reader`` of the stores."""

    def __init__(
        self,
        stack: ChaosStack,
        load: LoadSettings,
        seed: int,
        started: float,
        name: str,
        observations: Callable[[Callable[[], float]], Observations] = Observations,
        bases: list[str] | None = None,
        reader: StoreReader | None = None,
    ) -> None:
        self.stack, self.name = stack, name
        self.t0 = time.monotonic()
        self.phases: dict[str, float] = {}
        self.obs = observations(self.clock)
        self.load = Load(bases or stack.bases, self.obs, load, seed)
        self.reader = reader or StoreReader(stack.store_client(), stack.database.url)
        self.monitor = StallMonitor(self.reader, self.obs.game_ids, self.obs.player_active, self.clock)
        self.cpu = 0.0
        self.phase("stack_started_s", self.t0 - started)

    def clock(self) -> float:
        """Seconds since the run began: every time of the run (windows, answers, stalls) is on it."""
        return time.monotonic() - self.t0

    def phase(self, name: str, at: float | None = None) -> None:
        at = self.clock() if at is None else at
        self.phases[name] = round(at, 1)
        print(f"{self.name}: {name} {at:.1f}", file=sys.stderr, flush=True)  # progress; stdout is the JSON

    def start(self) -> None:
        self.cpu = time.process_time()
        self.load.start()
        self.monitor.start()
        self.phase("load_started_s")

    def finish(self, ending: Ending, windows: Callable[[float], list[Window]]) -> dict[str, Any]:
        """The end (see the module docstring); ``windows(end)`` are the drill's.  The report's common part; its
        ``passed`` is every invariant's."""
        reader, obs = self.reader, self.obs
        settled = wait_until(self.stack.settled, 120.0)
        time.sleep(ending.settle)  # load with every part up
        self.phase("settled_s")
        self.load.stop_creating.set()
        # the games in play played on, until each is over or the drain's bound: on a busy machine a short run's
        # games need longer than on a quiet one, and a run whose games never end shows nothing of the records
        wait_until(lambda: all_over(reader, obs.game_ids()), ending.drain)
        self.phase("drained_s")
        still_running = self.load.end(bound=30.0)
        cpu = time.process_time() - self.cpu
        bound = ending.ai_deadline + STUCK_MARGIN
        idle = wait_until(lambda: computers_idle(reader, obs.game_ids()), bound + 5)
        stalls = self.monitor.finish()
        self.phase("players_stopped_s")
        known = set(obs.game_ids())
        ids = reader.game_ids() | known
        games = {game_id: game for game_id in ids if (game := reader.game(game_id)) is not None}
        finished = {g.game_id: g.version for g in games.values() if g.over}

        def recorded() -> bool:
            rows = {row.game_id: row.version for row in reader.records()}
            return all(rows.get(game_id) == version for game_id, version in finished.items())

        records_written = wait_until(recorded, 3 * ending.records_retry + 30)
        rows = reader.records()
        written = {row.game_id: row.version for row in rows}
        unrecorded = {  # where each missing record stands in the outbox: seconds until due (None: no entry)
            game_id: None if (due := reader.outbox_due(game_id)) is None else round(due - time.time(), 1)
            for game_id, version in finished.items()
            if written.get(game_id) != version
        }
        games = {game_id: game for game_id in ids if (game := reader.game(game_id)) is not None}  # as judged
        self.phase("checked_s")
        spans = windows(self.clock())
        with obs.lock:
            acks = list({(a.game_id, a.version): a for a in obs.acks}.values())
            errors = list(obs.errors)
        verdicts = judge(acks, games, stalls, rows, errors, spans, bound)
        inside = sum(any(w.holds(e.at) for w in spans) for e in errors)
        by_kind = Counter(kind for e in errors for kind in {w.kind for w in spans if w.holds(e.at)})
        counters = metric_samples(self.stack.bases, METRICS)
        return {
            "windows": [{"kind": w.kind, "start_s": round(w.start, 2), "end_s": round(w.end, 2)} for w in spans],
            "stuck_bound_s": bound,
            "phases": self.phases,
            "stack_settled_at_the_end": settled is not None,
            "computers_idle_at_end": idle is not None,
            "records_all_written": records_written is not None,
            "unrecorded_games_outbox_due_in_s": unrecorded,
            "load": {
                "games_started": len(known),
                "games_finished": len(finished),
                "games_finished_by_their_players": dict(self.load.finished),
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
                "bot_runner": dict(self.load.tally.counts),
                "bot_refusals": dict(self.load.tally.refusals),
                "player_threads_still_running": still_running,
                "longest_wait_at_a_computers_turn": longest_waits(stalls, spans),
                "monitor_samples": self.monitor.samples,
                "load_generator_cpu_s": round(cpu, 1),  # this process (clients, monitor, drill) over the load
            },
            "service_counters": {name: counters[name] for name in METRICS},
            "invariants": {v.name: v.as_json() for v in verdicts},
            "passed": all(v.passed for v in verdicts),
        }
