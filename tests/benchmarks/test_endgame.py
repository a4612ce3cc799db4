"""``benchmarks.endgame`` times expert's endgame search with its memo and with two slots, same values,
and as expert decides, within its budget of positions."""

from __future__ import annotations

from benchmarks.endgame import endgame_views, main


def test_the_positions_have_the_tricks_left_and_a_choice():
    views = endgame_views(5, 3)
    assert len(views) == 5
    assert all(len(v["hand"]) == 3 and len(v["legal"]) > 1 and v["phase"] == "playing" for v in views)


def test_a_small_run_reports_both_memos_and_equal_values(capsys):
    report = main(["--positions", "3", "--deals", "10", "--cpu", "-1"])
    assert report["positions"] == 3 and report["tricks_left"] == 5 and report["deals_per_position"] == 10
    for memo in ("memo_2**16", "memo_2**1"):
        assert 0 < report[memo]["mean_ms"] <= report[memo]["max_ms"]
    assert report["values_equal"] is True
    assert report["expert_budget"]["positions"] > 0 and report["expert_budget"]["positions_per_ms"] > 0
    assert '"values_equal": true' in capsys.readouterr().out
