"""``python -m benchmarks.chaos``: a short run with one fault of each of the five kinds, every invariant holding.

The run is cut to fit the suite (docs/benchmarks.md has the 10-minute one): 20 s of load on one API server of
two workers, games to 30 (one round, most of the time) so that several finish and are recorded, a 2 s AI
deadline (a game may wait 12 s past a fault), the records database down 6 s and a broker node 3 s; then the
games in play are played to their end (for at most 60 s: a few seconds on a quiet machine).  Every kind of
fault is injected once, at a random time, and must recover.  The invariant checker itself is unit-tested on
made-up breaches in tests/testkit/test_chaos_invariants.py.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from testkit.chaos_faults import KINDS
from testkit.processes import ROOT

SHORT_RUN = [
    "--seconds", "20", "--faults", "5", "--warmup", "2", "--db-outage", "6", "--broker-outage", "3",
    "--ai-deadline", "2", "--records-retry", "2", "--settle", "1", "--drain", "60", "--api-servers", "1",
    "--people", "2", "--tables", "1", "--bots", "1", "--think", "0.01", "0.05", "--win-score", "30",
]  # fmt: skip


@pytest.mark.integration
def test_a_short_run_with_each_kind_of_fault_keeps_every_invariant():
    command = [sys.executable, "-m", "benchmarks.chaos", *SHORT_RUN]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    out = json.loads(run.stdout)
    failed = {name: v for name, v in out["invariants"].items() if not v["pass"]}
    assert run.returncode == 0 and out["passed"], (failed, out["faults"], run.stderr[-3000:])
    assert sorted(fault["kind"] for fault in out["faults"]) == sorted(KINDS)
    assert all(fault["recovered_s"] is not None and "error" not in fault for fault in out["faults"])
    assert len(out["windows"]) == 5 and all(w["end_s"] > w["start_s"] for w in out["windows"])
    (ai_worker,) = [fault for fault in out["faults"] if fault["kind"] == "ai_worker"]
    # frozen mid-decision (its task neither acknowledged nor answered), then killed
    assert ai_worker["killed_during_task"]
    load = out["load"]
    assert load["moves_acknowledged"] > 0 and load["games_started"] >= 4
    assert load["games_finished"] >= 1 and out["records_all_written"]
    assert load["5xx_outside_windows"] == out["invariants"]["5xx_outside_fault_windows"]["figure"] == 0
    assert set(out["invariants"]) == {
        "acknowledged_moves_lost",
        "moves_applied_twice",
        "games_stuck",
        "finished_games_not_recorded_exactly_once",
        "5xx_outside_fault_windows",
    }
