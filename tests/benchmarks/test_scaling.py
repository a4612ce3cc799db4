"""``benchmarks.scaling``: the level mix is what was asked, and the 1-vs-2 figures and calibrations add up."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from benchmarks import scaling
from testkit.processes import ROOT
from tests.conftest import REDIS_HOST, REDIS_PORT

BENCH_TEST_DB = 7


def test_the_level_option_names_one_level_or_a_bid_and_a_play_level():
    assert scaling.level_mix("hard") == ("hard", "hard")
    assert scaling.level_mix("standard,pro") == ("standard", "pro")
    for bad in ("grandmaster", "hard,pro,easy", ""):
        with pytest.raises(argparse.ArgumentTypeError):
            scaling.level_mix(bad)
    assert scaling.parse_args([]).level == ("hard", "hard")  # the default: hard bids and plays


def test_bids_go_to_the_bid_level_and_plays_to_the_play_level():
    batch = scaling.positions(120, mix=("basic", "easy"))
    assert len(batch) == 120
    for seat_view, level in batch:
        assert level == ("basic" if seat_view["phase"] == "bidding" else "easy")
        assert "history" not in seat_view  # as the API sends it
    assert {level for _, level in batch} == {"basic", "easy"}
    assert scaling.batch_queue(batch) == "bench.mix"
    assert scaling.batch_queue(scaling.positions(5, mix=("hard", "hard"))) == "ai.hard"  # the level's own queue


@pytest.mark.integration
def test_the_in_process_calibration_runs_the_same_batch_alone_then_twice_at_once():
    batch = scaling.positions(20, mix=("basic", "basic"))
    out = scaling.decision_calibration(batch, 0.3)
    assert out["seconds_each"] == 0.3 and len(out["decisions_2_processes"]) == 2
    assert out["decisions_1_process"] > 0 and min(out["decisions_2_processes"]) > 0
    assert out["ratio_2_vs_1"] == round(sum(out["decisions_2_processes"]) / out["decisions_1_process"], 2)


@pytest.mark.integration
def test_a_short_run_measures_celery_and_both_calibrations_side_by_side():
    command = [sys.executable, "-m", "benchmarks.scaling", "--level", "basic,easy", "--decisions", "30"]
    command += ["--redis-host", REDIS_HOST, "--redis-port", str(REDIS_PORT), "--redis-db", str(BENCH_TEST_DB)]
    command += ["--seconds", "0.5", "--clients", "1", "--calibration-seconds", "0.5", "--busy-loop-seconds", "0.5"]
    command += ["--idle-seconds", "2"]  # an idle worker's blocking pop (1 s timeout) returns at least once
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    out = json.loads(run.stdout)
    assert out["levels"] == {"bid": "basic", "play": "easy"} and out["decisions"] == 30
    assert [a["processes"] for a in out["ai"]] == [1, 2]
    assert {a["queue"] for a in out["ai"]} == {"bench.mix"}  # two levels: one queue for both
    assert all(a["decisions"] == 30 and a["decisions_per_second"] > 0 for a in out["ai"])
    for a in out["ai"]:  # the broker's commands per decision, by command (the test Redis is shared: at least)
        calls = a["broker_redis_calls_per_decision"]
        assert a["broker_redis_calls_per_decision_total"] == pytest.approx(sum(calls.values()), abs=0.02)
        # a send (LPUSH), a delivery (BRPOP), the result's SETEX + PUBLISH, the API's DEL of it
        assert all(calls[name] >= 1 for name in ("lpush", "brpop", "setex", "publish", "del"))
        assert set(calls) == set(a["broker_redis_usec_per_decision"])
        assert a["broker_redis_idle_calls_per_worker_second"]["brpop"] > 0  # an idle worker's blocking pop
    ratio = out["ai"][1]["decisions_per_second"] / out["ai"][0]["decisions_per_second"]
    assert out["ai_ratio_2_vs_1"] == pytest.approx(ratio, abs=0.01)
    assert out["goal_ai_ratio"] == 1.6
    assert out["meets_goal_ai_ratio"] == (out["ai_ratio_2_vs_1"] >= 1.6)
    calibration = out["cpu_calibration_decisions"]
    assert calibration["seconds_each"] == 0.5
    assert out["cpu_calibration_decisions_2_vs_1"] == calibration["ratio_2_vs_1"] > 0
    assert out["ai_ratio_share_of_calibration"] == pytest.approx(
        out["ai_ratio_2_vs_1"] / calibration["ratio_2_vs_1"], abs=0.02
    )
    assert out["cpu_calibration_2_vs_1"] > 0
    assert [a["workers"] for a in out["api_get_view"]] == [1, 2] and out["api_ratio_2_vs_1"] > 0
