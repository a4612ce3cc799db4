"""Every recorded decision (``record_decisions.py``) is made again, identically,
through the Celery tasks' own functions: a change to the worker's code that
is meant to keep behaviour must keep every move and every hint figure."""

from __future__ import annotations

from services.ai_worker.tasks import decide_task, hint_task
from services.computers import HINT_LEVEL, LEVEL_NAMES

from .record_decisions import MINIMA, load, summary

ENTRIES = load()


def test_the_record_covers_every_level_bids_cards_both_scorings_and_nils():
    covered = summary(ENTRIES)
    assert covered["entries"] >= 1000
    assert covered["rule_sets"] >= 8
    for level in LEVEL_NAMES:
        figures = covered["levels"][level]
        assert all(figures[key] >= least for key, least in MINIMA.items()), (level, figures)
    assert covered["levels"][HINT_LEVEL]["hints"] >= 40


def test_every_recorded_decision_is_made_again():
    differ = []
    for i, entry in enumerate(ENTRIES):
        v, seed = entry["view"], entry["seed"]
        ids = {"game_id": f"replay-{i}", "version": i, "seat": v["you"], "seed": seed}
        if entry["entry"] == "hint":
            result = hint_task.run(view=v, **ids)
            again = {key: result[key] for key in ("level", "move", "candidates")}
            recorded = {key: entry[key] for key in ("level", "move", "candidates")}
        else:
            again = decide_task.run(view=v, level=entry["level"], **ids)["move"]
            recorded = entry["move"]
        if again != recorded:
            differ.append((i, entry["level"], recorded, again))
    assert not differ, f"{len(differ)} of {len(ENTRIES)} decisions differ, first: {differ[:3]}"
