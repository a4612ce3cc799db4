"""``python -m benchmarks.fair_share`` runs end to end and prints the figures docs/benchmarks.md quotes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from testkit.processes import ROOT
from tests.conftest import redis_url

FAIR_SHARE_DB = 4  # the benchmark flushes its database


@pytest.mark.integration
def test_a_short_run_prints_the_flood_and_both_windows():
    command = [sys.executable, "-m", "benchmarks.fair_share", "--people", "2", "--warmup-seconds", "1"]
    command += ["--baseline-seconds", "3", "--flood-seconds", "2", "--tail-seconds", "2", "--flood-connections", "2"]
    command += ["--redis-url", redis_url(FAIR_SHARE_DB)]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    out = json.loads(run.stdout)
    assert out["settings"]["RATE_LIMIT_ENABLED"] is True and out["settings"]["MAX_COMPUTER_GAMES"] == 3
    assert out["settings"]["COMPUTER_GAME_PACE_SECONDS"] == 0.25
    flood = out["flood"]
    assert flood["requests"] == flood["games_accepted"] + sum(flood["refused"].values()) > 0
    assert flood["games_accepted"] >= 1
    # the quota refuses the rest (a game that ends within the flood frees its place for one more)
    assert flood["refused"]["too_many_computer_games"] >= 1
    assert set(flood["refused"]) <= {"create_rate_limited", "too_many_computer_games", "rate_limited"}
    for window in ("without_flood", "with_flood"):
        figures = out[window]
        assert figures["computer_moves"] > 0 and figures["max_ms"] >= figures["p99_ms"] >= figures["p50_ms"] > 0
        cores = figures["cores_used"]  # where each window's load went
        assert {"api", "interactive_worker", "bulk_worker"} <= set(cores) and cores["api"] > 0
    assert out["p99_ratio"] > 0 and out["goal_p99_ratio_max"] == 2.0
    assert out["people_errors"] == {}
