"""``python -m benchmarks.reshard``: a short run, a master added and one removed under load with
docs/operations.md's "Reshard" commands as written, every invariant holding.

The run is cut to fit the suite (docs/benchmarks.md has the full one): one API server of two workers, one broker
node, a few players, games to 30, 100 games at rest; 3 s of load before the master is added and 2 s between the
steps.  The slots still move whole: a quarter of them to the new master, then all of one original master's.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from testkit import cluster_reshard
from testkit.processes import ROOT

SHORT_RUN = [
    "--warmup", "3", "--between", "2", "--settle", "1", "--drain", "60", "--api-servers", "1",
    "--broker-nodes", "1", "--people", "2", "--tables", "1", "--bots", "1", "--think", "0.01", "0.05",
    "--win-score", "30", "--ai-deadline", "2", "--records-retry", "2", "--resting", "100",
]  # fmt: skip


@pytest.mark.integration
def test_a_master_added_and_one_removed_under_load_keep_every_invariant():
    command = [sys.executable, "-m", "benchmarks.reshard", *SHORT_RUN]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900)
    out = json.loads(run.stdout)
    failed = {name: v for name, v in out["invariants"].items() if not v["pass"]}
    assert run.returncode == 0 and out["passed"], (failed, out["steps"], run.stderr[-3000:])
    added, removed = out["steps"]
    assert (added["kind"], added["slots_moved"], added["masters_after"]) == ("add", 4096, 4)
    assert (removed["kind"], removed["slots_moved"], removed["masters_after"]) == ("remove", 4096, 3)
    assert added["keys_moved"] > 0 and removed["keys_moved"] > 0, "the games' keys moved with their slots"
    assert out["masters_at_the_end"] == 3
    assert sorted(out["blocks_run"]) == sorted(cluster_reshard.BLOCKS)  # every block of the section, as written
    load = out["load"]
    assert load["moves_acknowledged"] > 0 and load["games_finished"] >= 1 and out["records_all_written"]
    assert load["5xx_outside_windows"] == out["invariants"]["5xx_outside_fault_windows"]["figure"] == 0
    assert all(out["seen_during_the_steps"][step]["statuses"] for step in ("add", "remove")), "played during both"
