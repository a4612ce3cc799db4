"""``python -m benchmarks.matchmaking`` runs end to end at a small N: everyone seated once, nothing lost."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from testkit.processes import ROOT
from tests.conftest import redis_url

MATCHMAKING_DB = 9  # the benchmark flushes its database


@pytest.mark.integration
def test_a_small_run_seats_every_person_once():
    command = [sys.executable, "-m", "benchmarks.matchmaking", "--people", "40", "--seconds", "4", "--wait", "5"]
    command += ["--no-clocks", "--redis-url", redis_url(MATCHMAKING_DB)]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(run.stdout)["matchmaking"]
    assert figures["statuses"] == {"seated": 40} and figures["lost"] == 0 and figures["errors"] == {}
    assert figures["seated_twice"] == 0 and figures["api_processes"] == 2
    assert sum(people * games for people, games in ((int(p), g) for p, g in figures["people_per_game"].items())) == 40
    assert figures["server"]["requests_seated"] == figures["server"]["requests_submitted"] == 40
    times = figures["time_to_seat_ms"]
    assert times["max"] >= times["p99"] >= times["p50"] > 0
