"""``benchmarks.ai`` prints a latency figure for every level of the catalogue, per preset, and the worker's memory."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from benchmarks import ai
from services.computers import LEVEL_NAMES
from testkit.processes import ROOT
from tests.conftest import redis_url

BENCH_TEST_DB = 7
FIGURES = ("n", "p50_ms", "p99_ms", "max_ms", "mean_ms")


def assert_percentiles(figures: dict) -> None:
    assert set(FIGURES) <= set(figures)
    assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]


def test_every_level_is_timed_or_listed_as_unavailable_with_both_presets_apart():
    report = ai.main(["--positions", "6", "--playouts", "2000", "--cpu", "-1"])
    timed = set(report["bid"])
    assert set(report["play"]) == timed
    assert timed | set(report["levels_unavailable"]) == set(LEVEL_NAMES)
    assert not timed & set(report["levels_unavailable"])
    assert {"easy", "standard", "pro", "basic"} <= timed  # what the worker plays today
    for phase in ("bid", "play"):
        for figures in report[phase].values():
            assert_percentiles(figures)
            assert figures["n"] == 6
            assert sum(p["n"] for p in figures["by_preset"].values()) == 6
            assert set(figures["by_preset"]) <= {"partnership", "individual"}
    assert set(report["kernel_full_round_playouts_per_s"]) == {"partnership", "individual"}
    assert report["rss_mib"] > 0 and report["worker_memory"] is None
    goals = report["meets_goals"]
    for goal, level in (("hard_p50_ms", "hard"), ("hard_p99_ms", "hard"), ("normal_p99_ms", "normal")):
        assert (goals[goal] is None) == (level in report["levels_unavailable"])  # never a pass unmeasured
    assert goals["basic_p99_ms"] is not None and goals["worker_rss_total_mib"] is None
    for key in ("hard_p50_ms", "hard_p99_ms", "basic_p99_ms", "normal_p99_ms", "worker_rss_mib"):
        assert key in report["goals"]


@pytest.mark.integration
def test_the_worker_memory_is_a_real_celery_worker_serving_every_queue():
    import redis

    redis.Redis.from_url(redis_url(BENCH_TEST_DB)).flushdb()
    command = [sys.executable, "-m", "benchmarks.ai", "--positions", "3", "--playouts", "2000", "--cpu", "-1"]
    command += ["--worker-redis", redis_url(BENCH_TEST_DB), "--worker-concurrency", "1"]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    report = json.loads(run.stdout)
    worker = report["worker_memory"]
    assert "ai.expert" in worker["what"] and "ai.basic" in worker["what"]
    assert worker["processes"] == 2  # the prefork parent and its one child
    assert worker["decisions_served"] == 2 * min(3, ai.WORKER_SAMPLES) * len(report["bid"])
    assert worker["rss_total_mib"] == pytest.approx(sum(worker["rss_mib_each"]), abs=0.2)
    assert 0 < worker["pss_total_mib"] <= worker["rss_total_mib"]
    assert report["meets_goals"]["worker_rss_total_mib"] == (worker["rss_total_mib"] <= 400)
