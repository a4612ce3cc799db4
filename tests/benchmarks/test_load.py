"""``python -m benchmarks.load`` runs end to end and prints the figures docs/benchmarks.md quotes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from testkit.processes import ROOT


@pytest.mark.integration
def test_a_short_run_plays_games_without_an_error_and_counts_each_game_once(private_redis_url):
    command = [sys.executable, "-m", "benchmarks.load", "--games", "4", "--seconds", "3", "--procs", "1"]
    command += ["--redis-url", private_redis_url]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    out = json.loads(run.stdout)
    assert out["errors"] == 0, out["error_samples"]
    assert out["api_worker_class"] == "gevent" and "api_threads_per_worker" not in out
    assert out["moves_per_second"] > 0 and out["ai_decisions_per_second"] > 0
    latency = out["latency_ms"]
    assert {"create", "view"} <= set(latency)
    assert all(each["p99"] >= each["p95"] >= each["p50"] > 0 for each in latency.values())
    # the games Redis holds, each counted once however many keys it has: at least the four in play, and no more
    # than were created
    assert 4 <= out["games_in_redis"] <= latency["create"]["count"]
    assert out["redis_bytes_per_game"] > 0
