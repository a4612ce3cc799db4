"""``python -m benchmarks.restore`` runs docs/operations.md's commands end to end at a few dozen records: the
restored dump holds every table as backed up, the point-in-time recovery every table as it was at the target
(with the records the dump lost), and the drill runs every command block of its part of the runbook; every block
of the runbook is run by one of the drills (those of ``tests/operations`` too)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from benchmarks import restore as restore_drill
from services.api.records.schema import metadata
from testkit import cluster_reshard, runbook
from testkit.processes import ROOT
from tests.operations import test_fail_over as fail_over
from tests.operations import test_rotate_secrets as rotate
from tests.operations import test_scale_workers as scale_workers

TABLES = len(metadata.tables) + 1  # and alembic_version


def test_every_command_block_of_the_runbook_is_named_and_run_by_a_drill():
    assert runbook.unnamed_blocks() == 0
    drills = [restore_drill.BLOCKS, cluster_reshard.BLOCKS, fail_over.BLOCKS, scale_workers.BLOCKS, rotate.BLOCKS]
    assert {name for blocks in drills for name in blocks} == set(runbook.blocks())


@pytest.mark.integration
def test_a_small_drill_restores_and_recovers_every_table_with_the_runbooks_commands():
    command = [sys.executable, "-m", "benchmarks.restore", "--records", "40", "--records-after", "8"]
    command += ["--players", "10", "--distinct-games", "4"]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    out = json.loads(run.stdout)
    assert sorted(out["blocks_run"]) == sorted(
        restore_drill.BLOCKS
    )  # every block of its part of the runbook, as written
    restore = out["restore"]
    assert restore["records"] == 40
    for comparison in (restore["backup_against_restored"], restore["backup_against_records_server"]):
        assert comparison["tables"] == TABLES and comparison["differing"] == []
        assert comparison["rows"] > 40 * 4  # records, their seats, players, ratings, player games…
    recovered = out["point_in_time"]
    assert recovered["records"] == 48  # the 8 written after the dump too, and none of the mistake's deletions
    assert recovered["newest_before_target"]
    assert recovered["recovered_against_target"]["tables"] == TABLES
    assert recovered["recovered_against_target"]["differing"] == []
    assert out["ok"] and out["backup"]["bytes"] > 0
