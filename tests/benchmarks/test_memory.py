"""``python -m benchmarks.memory`` runs end to end and prints the figures docs/benchmarks.md quotes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from benchmarks.memory import CHECKPOINTS, checkpoint_after, seeds_with_rounds
from testkit.processes import ROOT
from tests.conftest import redis_url

BENCH_TEST_DB = 6


@pytest.mark.integration
def test_a_one_game_run_prints_bytes_per_checkpoint_and_the_finished_ttl(redis_db1):
    command = [sys.executable, "-m", "benchmarks.memory", "--games", "1", "--redis-url", redis_url(BENCH_TEST_DB)]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    out = json.loads(run.stdout)
    figures = out["bytes_per_game_median"]
    assert list(figures) == list(CHECKPOINTS)
    for name in CHECKPOINTS:
        parts = figures[name]
        assert parts["total"] == parts["hash"] + parts["events"] + parts["idempotency"] > 0
    assert figures["fresh"]["idempotency_entries"] == 0
    # every move keyed, ROUNDS * 56 of them: one entry per seat, its last keyed move's
    assert figures["mid_round_5"]["idempotency_entries"] == figures["finished"]["idempotency_entries"] == 4
    ttls = out["finished_ttl_seconds"]
    assert 0 < ttls["hash"] <= 3600  # FINISHED_GAME_TTL_SECONDS
    assert 0 < ttls["idempotency_max"] <= ttls["hash"]  # no seat's entry outlives the finished game


def test_the_checkpoints_fall_mid_round_and_at_the_end_of_a_ten_round_game():
    assert [checkpoint_after(i) for i in (4 * 56 + 29, 9 * 56 + 29, 10 * 56 - 1)] == [
        "mid_round_5",
        "mid_round_10",
        "finished",
    ]
    assert seeds_with_rounds(1) == seeds_with_rounds(1)  # reproducible
