"""``python -m benchmarks.api`` runs end to end and prints the figures docs/benchmarks.md quotes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from benchmarks.wire import CLIENTS
from testkit.processes import ROOT
from tests.conftest import API_TEST_DB, redis_url


@pytest.mark.parametrize(("client", "worker_class"), list(zip(sorted(CLIENTS), ["gevent", "gthread"], strict=True)))
@pytest.mark.integration
def test_a_short_run_prints_throughput_cpu_and_ratios(redis_db1, client, worker_class):
    command = [sys.executable, "-m", "benchmarks.api", "--seconds", "0.5", "--rounds", "1", "--clients", "2"]
    command += ["--client", client, "--worker-class", worker_class, "--redis-url", redis_url(API_TEST_DB)]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=240, check=True)
    out = json.loads(run.stdout)
    assert out["settings"]["client"] == client and out["settings"]["worker_class"] == worker_class
    for kind in ("floor_bare_redis_get", "get_view", "moves"):
        figures = out[kind]
        assert figures["requests_per_s_median"] > 0
        assert figures["server_cpu_us_per_request_median"] > 0
        assert figures["p99_ms_median"] >= figures["p50_ms_median"] > 0
    for name in ("get_view", "moves"):
        assert out[f"ratio_{name}_to_floor"] > 0 and out[f"cpu_ratio_{name}_to_floor"] > 0
        assert len(out[f"ratio_{name}_to_floor_per_round"]) == 1
    assert out["goal_ratio"] == 0.5


@pytest.mark.integration
def test_with_access_log_the_service_logs_a_line_per_request(redis_db1):
    command = [sys.executable, "-m", "benchmarks.api", "--seconds", "0.5", "--rounds", "1", "--clients", "1"]
    command += ["--redis-url", redis_url(API_TEST_DB)]
    run = subprocess.run([*command, "--access-log"], cwd=ROOT, capture_output=True, text=True, timeout=240, check=True)
    out = json.loads(run.stdout)
    assert out["settings"]["service_access_log"] is True
    measured = round((out["get_view"]["requests_per_s_median"] + out["moves"]["requests_per_s_median"]) * 0.5)
    assert measured > 0 and out["service_access_log_lines"] >= measured  # plus warm-up and game creation
