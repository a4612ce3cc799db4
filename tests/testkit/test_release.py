"""The test release of ``benchmarks.release`` (testkit/release/): its overlay still applies to this tree, the
tree it builds holds the four things it adds, and the meetings are told apart on made-up answers.  No server:
the whole rolling upgrade and rollback run in tests/benchmarks/test_release.py."""

from __future__ import annotations

import threading

import orjson

from services.api.games.record import GameRecord, Seat
from testkit.processes import ROOT
from testkit.release import overlay
from testkit.release.meetings import Results, ResultWatch, Stamps


def test_every_edit_of_the_overlay_finds_its_text_once_in_this_tree():
    """A change to one of these lines of the service makes the overlay follow it (the build names the edit)."""
    files = set(overlay.tree_files())
    for edit in overlay.EDITS:
        assert edit.path in files, edit.path
        assert (ROOT / edit.path).read_text(encoding="utf-8").count(edit.old) == 1, edit


def test_the_built_tree_holds_the_four_things_the_release_adds(tmp_path):
    head = overlay.migration_head(ROOT)
    tree = overlay.build(tmp_path / "next", seed_kernels=False)
    read = {name: (tree / name).read_text(encoding="utf-8") for name in (
        "services/api/games/pipeline.py", "services/api/games/event_types.py", "services/api/ai_seats/dispatch.py",
        "services/ai_worker/tasks.py", "services/api/records/repository.py",
    )}  # fmt: skip
    assert "stamps.stamped(nxt, before, change.by)" in read["services/api/games/pipeline.py"]
    assert 'EventType("stamped")' in read["services/api/games/event_types.py"]
    assert "deadline_ms: int | None = None" in read["services/ai_worker/tasks.py"]
    assert '"deadline_ms": round((now + self.deadline) * 1000)' in read["services/api/ai_seats/dispatch.py"]
    assert '"rounds": len(document["rounds"])' in read["services/api/records/repository.py"]
    migrations = tree / overlay.MIGRATIONS
    assert f'down_revision = "{head}"' in (migrations / "release_expand.py").read_text(encoding="utf-8")
    assert "contract = True" in (migrations / "release_contract.py").read_text(encoding="utf-8")
    assert overlay.migration_head(tree) == "release_contract"
    untouched = "services/engine/state.py"
    assert (tree / untouched).read_bytes() == (ROOT / untouched).read_bytes()
    before = (tree / untouched).stat().st_mtime_ns
    # synced again: an unchanged file is left as it was (numba's stamp)
    overlay.build(tmp_path / "next", seed_kernels=False)
    assert (tree / untouched).stat().st_mtime_ns == before


def record(version: int, stamp: dict | None) -> GameRecord:
    made = GameRecord("g", version, [Seat("ai", "basic")] * 4, "")
    if stamp is not None:
        made.unknown = {"stamp": stamp}
    return made


def test_a_stamp_kept_by_an_old_commit_and_a_stamp_dropped_are_told_apart():
    stamps = Stamps()
    stamps.note(record(3, {"release": "next", "version": 3}))
    stamps.note(record(5, {"release": "next", "version": 3}))  # an old process committed 4 and 5, and kept it
    assert stamps.figures() == {
        "games_stamped": 1,
        "games_an_old_process_wrote_after_a_stamp_kept": 1,
        "stamps_dropped": 0,
    }
    stamps.note(record(4, None))  # an older read finishing late: not a drop
    stamps.note(record(6, None))
    assert stamps.dropped == {"g": "stamped at v5, none at v6"}


def test_the_answers_say_which_release_sent_the_task_and_which_answered_it():
    results = Results()
    watch = ResultWatch("redis://127.0.0.1:1/0", results, threading.Lock())  # never connected: sort only
    answer = {"game_id": "g", "version": 1, "seat": 0, "level": "basic", "move": {"bid": 2}, "elapsed_ms": 1.0}
    for result in (
        answer,
        {**answer, "ignored": ["deadline_ms"]},
        {**answer, "deadline_ms": 5, "late_ms": 0},
        {**answer, "deadline_ms": None, "late_ms": None},
        {**answer, "candidates": []},  # a hint's analysis: not a decision
    ):
        watch.sort(orjson.loads(orjson.dumps({"status": "SUCCESS", "result": result, "task_id": "t"})))
    watch.sort({"status": "FAILURE", "result": {"exc_type": "TypeError"}, "task_id": "t9"})
    assert dict(results.by_pair) == {
        "old api, old worker": 1,
        "new api, old worker": 1,
        "new api, new worker": 1,
        "old api, new worker": 1,
    }
    assert results.failures == ["t9: FAILURE {'exc_type': 'TypeError'}"]
