"""``python -m benchmarks.leaderboard`` runs end to end at a few thousand players: its figures are computed and
the ranks it times agree with a plain COUNT over the whole board, and its top with a plain ORDER BY."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from testkit.processes import ROOT


@pytest.mark.integration
def test_a_small_run_times_both_queries_and_its_ranks_are_right():
    command = [sys.executable, "-m", "benchmarks.leaderboard", "--players", "3000", "--queries", "200"]
    command += ["--checks", "100", "--warmup", "5"]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    out = json.loads(run.stdout)
    assert out["players"] == 3000 and out["rating_rows"] == 3000 + 1000  # a third also on the individual board
    assert 0.4 < out["on_the_boards"] / out["rating_rows"] < 0.8  # the others provisional
    for figures in (out["top50"], out["own_rank"]):
        assert figures["queries"] == 200 and figures["max_ms"] >= figures["p99_ms"] >= figures["p50_ms"] > 0
    assert out["ranks_checked"] == 100 and out["rank_mismatches"] == 0 and out["top_agrees"]
    assert out["buckets"] > 1 and out["largest_bucket"] < 3000  # the scores spread over many buckets
