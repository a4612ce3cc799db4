"""``python -m benchmarks.players`` runs end to end on a private PostgreSQL and prints the figures
docs/capacity.md quotes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from testkit.processes import ROOT


@pytest.mark.integration
def test_a_small_run_prints_bytes_per_player_and_the_rates():
    command = [sys.executable, "-m", "benchmarks.players", "--players", "1000", "--threads", "2", "--seconds", "1"]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    out = json.loads(run.stdout)
    sizes = out["bytes"]
    assert sizes["players"] == 1000
    assert sizes["total_bytes_per_player"] == pytest.approx(
        sizes["table_bytes_per_player"] + sizes["index_bytes_per_player"], abs=1
    )
    assert 100 < sizes["total_bytes_per_player"] < 2000
    rates = out["rates"]
    assert rates["players_made"] > 0 and rates["token_lookups"] > 0
