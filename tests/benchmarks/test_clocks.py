"""``python -m benchmarks.clocks`` runs end to end at a tiny size and prints the figures docs/benchmarks.md quotes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from testkit.processes import ROOT


@pytest.mark.integration
def test_a_tiny_run_times_out_every_clock_once_and_measures_the_lateness():
    command = [sys.executable, "-m", "benchmarks.clocks", "--games", "20", "--create-rate", "20"]
    command += ["--worker-concurrency", "1"]  # a Redis of its own on a free port (the default)
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    out = json.loads(run.stdout)
    assert out["settings"]["games"] == 20 and out["settings"]["takeover_level"] == "basic"
    assert out["settings"]["first_deadline_seconds"] == pytest.approx(11.0, abs=0.1)  # after the last creation
    assert out["concurrent_clocks"] == 20, "every clock ran when the first deadline passed"
    assert out["timeouts"] == 20 and out["missed"] == 0 and out["duplicates"] == 0
    late = out["lateness_ms"]
    assert late["max"] >= late["p99"] >= late["p50"] >= 0 and late["over_1s"] >= 0
    assert set(late["sweep"]) == set(late["decision"]) == {"p50", "p90", "p99", "max"}
    assert set(out["cores_used"]) == {"api", "worker", "redis"}
    assert out["goal_p99_ms_max"] == 1000 and isinstance(out["goal_met"], bool)
