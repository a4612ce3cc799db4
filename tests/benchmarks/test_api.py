"""``python -m benchmarks.api`` runs end to end and prints the figures docs/benchmarks.md quotes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from benchmarks.procs import ROOT
from benchmarks.wire import CLIENTS


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_a_short_run_prints_throughput_cpu_and_ratios(redis_db1, client):
    command = [sys.executable, "-m", "benchmarks.api", "--seconds", "0.5", "--rounds", "1", "--clients", "2"]
    command += ["--client", client]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=240, check=True)
    out = json.loads(run.stdout)
    assert out["settings"]["client"] == client
    for kind in ("floor_bare_redis_get", "get_view", "moves"):
        figures = out[kind]
        assert figures["requests_per_s_median"] > 0
        assert figures["server_cpu_us_per_request_median"] > 0
        assert figures["p99_ms_median"] >= figures["p50_ms_median"] > 0
    for name in ("get_view", "moves"):
        assert out[f"ratio_{name}_to_floor"] > 0 and out[f"cpu_ratio_{name}_to_floor"] > 0
        assert len(out[f"ratio_{name}_to_floor_per_round"]) == 1
    assert out["goal_ratio"] == 0.5
