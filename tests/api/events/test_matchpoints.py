"""Matchpoints: the worked example of docs/events.md, figure for figure, and the rules it illustrates."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.api.events.matchpoints import Standing, TableResult, matchpoints, ranks, score_deal, standings, top

DOC = Path(__file__).resolve().parents[3] / "docs" / "events.md"


def number(text: str) -> float:
    return float(text.strip().replace("−", "-"))


def worked_example() -> list[list[float]]:
    """The rows of the table under the worked example's marker."""
    section = DOC.read_text().split("<!-- worked example", 1)[1].splitlines()[1:]
    lines = section[: next(i for i, line in enumerate(section) if not line.startswith("|"))]  # the table under it
    return [[number(cell) for cell in line.strip("|").split("|")] for line in lines[2:]]


def test_the_worked_example_of_the_docs_is_what_the_code_scores():
    rows = worked_example()
    assert len(rows) == 4
    no_shows = frozenset({8})
    results = [TableResult(int(r[1]), int(r[2]), int(r[3]), int(r[4]), no_shows) for r in rows]
    assert [r.ns_score - r.ew_score for r in results] == [r[5] for r in rows]
    scored = score_deal(results)
    assert [(ns.matchpoints, ew.matchpoints) for ns, ew in scored] == [(r[6], r[7]) for r in rows]
    assert {ns.top for ns, _ in scored} == {6}
    by_pair = {s.pair: s for s in standings([scored], range(1, 9))}
    assert by_pair[4].percent == 100.0
    assert by_pair[8].percent == 40.0


@pytest.mark.parametrize(
    ("scores", "expected"),
    [([10, 10], [1, 1]), ([30, 20, 10], [4, 2, 0]), ([5], [0]), ([0, 0, 0, 0], [3, 3, 3, 3])],
)
def test_two_for_each_result_beaten_one_for_each_tie(scores, expected):
    assert matchpoints(scores) == expected
    assert sum(matchpoints(scores)) == top(len(scores)) * len(scores) / 2


def test_east_west_is_the_mirror_of_north_south():
    results = [TableResult(1, 2, s, e) for s, e in [(100, 20), (-40, 60), (80, 0), (33, 11)]]
    for ns, ew in score_deal(results):
        assert ns.matchpoints + ew.matchpoints == ns.top == ew.top


def test_standings_are_the_percentage_of_the_tops_best_first():
    board = score_deal([TableResult(1, 2, 50, 0), TableResult(3, 4, 10, 0)])
    rows = standings([board, board], [1, 2, 3, 4])
    assert [(s.pair, s.matchpoints, s.top, s.percent) for s in rows] == [
        (1, 4, 4, 100.0),
        (4, 4, 4, 100.0),
        (2, 0, 4, 0.0),
        (3, 0, 4, 0.0),
    ]


@pytest.mark.parametrize(
    ("percents", "expected"),
    [
        ([], []),
        ([60.0, 50.0, 50.0, 40.0], [1, 2, 2, 4]),
        ([50.0, 50.0, 50.0], [1, 1, 1]),
        ([70.0, 70.0, 55.5, 40.0, 40.0], [1, 1, 3, 4, 4]),
    ],
)
def test_pairs_on_the_same_percentage_share_a_rank_and_the_next_skips(percents, expected):
    rows = [Standing(pair, percent, 100) for pair, percent in enumerate(percents, start=1)]
    assert [s.percent for s in rows] == percents
    assert ranks(rows) == expected
