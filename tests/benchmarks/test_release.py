"""``python -m benchmarks.release``: a short rolling upgrade to the test release and back, every invariant holding
and each of the four things the new release adds (a stored field, an event type, a task argument, a records
column) written by it and met by the old one.

Cut to fit the suite (docs/benchmarks.md has the longer run): two API servers of one gunicorn worker and one
broker node with its worker, a second of load between steps, games to 30 so that some finish under each
release, a 2 s AI deadline; then the games in play are played to their end (for at most 60 s).  The overlay's
edits and the meetings' sorting are unit-tested in tests/testkit/test_release.py, the clock's invariant in
tests/testkit/test_chaos_clocks.py.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from testkit.processes import ROOT

SHORT_RUN = [
    "--warmup", "2", "--gap", "1", "--hold", "1", "--settle", "1", "--drain", "60", "--prestop", "1",
    "--api-servers", "2", "--api-workers", "1", "--broker-nodes", "1", "--people", "2", "--tables", "1", "--bots", "1",
    "--think", "0.01", "0.05", "--win-score", "30", "--ai-deadline", "2", "--records-retry", "2",
]  # fmt: skip


@pytest.mark.integration
def test_a_rolling_upgrade_and_its_rollback_keep_every_invariant_and_each_release_meets_the_others_data():
    command = [sys.executable, "-m", "benchmarks.release", *SHORT_RUN]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900)
    out = json.loads(run.stdout)
    failed = {name: v for name, v in out["invariants"].items() if not v["pass"]}
    assert run.returncode == 0 and out["passed"], (failed, out.get("error"), out["meetings"], run.stderr[-3000:])
    steps = [(step["kind"], step["release"]) for step in out["steps"]]
    contract, undo = steps.index(("contract", "new")), steps.index(("undo_contract", "new"))
    assert sorted(steps[:contract]) == [("ai_worker", "new"), ("api_server", "new"), ("api_server", "new")]
    assert contract + 1 == undo, "the new release alone between the contract and its undoing"
    assert sorted(steps[undo + 1 :]) == [("ai_worker", "old"), ("api_server", "old"), ("api_server", "old")]
    for step in out["steps"]:  # each old process stopped by its signal, nothing left in hand
        assert "error" not in step and step.get("old_exit_code", 0) == 0, step
        assert step.get("deliveries_left_in_hand", 0) == 0, step
    database = out["records_database"]
    assert database["after_expand"]["nullable"] and not database["after_contract"]["nullable"]
    assert database["after_undo_contract"]["nullable"] and database["end"]["revision"] == "release_expand"
    meetings = out["meetings"]
    assert all(meetings["new_release_wrote"].values()) and all(meetings["old_release_met"].values()), meetings
    load = out["load"]
    assert load["5xx_outside_windows"] == 0 and load["games_finished"] >= 2 and out["records_all_written"]
    assert load["person_moves_sent_in_time"] > 0, "the clock's invariant judged moves"
    assert set(out["invariants"]) == {
        "acknowledged_moves_lost",
        "moves_applied_twice",
        "games_stuck",
        "finished_games_not_recorded_exactly_once",
        "5xx_outside_deploy_windows",
        "turns_lost_to_the_clock_by_a_move_sent_in_time",
        "ai_tasks_failed",
        "stamps_dropped",
        "records_wrong_after_contract",
        "steps_failed",
    }
