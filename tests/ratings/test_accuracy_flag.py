"""Must show: the test-only cheater (expert's search on the true deal) is flagged within FLAG_MIN_GAMES games, and
the honest strong levels are not over the same games, on the benchmark's recorded per-round figures
(``tests/ratings/data/accuracy_benchmark.json``: ``python -m benchmarks.accuracy --rounds 64``, hard, expert and
the cheater; docs/ai.md, "Accuracy")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from services.ratings import accuracy
from services.ratings.accuracy import Accuracy, beyond_levels

RECORDED = json.loads((Path(__file__).parent / "data" / "accuracy_benchmark.json").read_text(encoding="utf-8"))
FLAGGED_WITHIN = 5  # games: docs/ai.md ("Accuracy") states this figure


def games(player: str) -> list[Accuracy]:
    """The player's recorded rounds grouped into rated games, in order."""
    rounds = [Accuracy(*row) for row in RECORDED["players"][player]]
    per = RECORDED["rounds_per_game"]
    return [sum(rounds[i : i + per], Accuracy()) for i in range(0, len(rounds), per)]


def games_to_flag(player: str) -> int | None:
    played = games(player)
    return next((n for n in range(1, len(played) + 1) if beyond_levels(played[:n])), None)


def test_the_cheater_is_flagged_within_the_stated_number_of_games() -> None:
    assert FLAGGED_WITHIN == accuracy.FLAG_MIN_GAMES
    assert games_to_flag("cheater") == FLAGGED_WITHIN


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_honest_strong_levels_are_not_flagged_over_the_same_games(level: str) -> None:
    played = games(level)
    assert len(played) >= FLAGGED_WITHIN
    assert not any(beyond_levels(played[:n]) for n in range(FLAGGED_WITHIN, len(played) + 1))


def test_the_cheater_is_told_by_true_deal_agreement_not_by_its_view() -> None:
    cheater = sum(games("cheater")[:FLAGGED_WITHIN], Accuracy())
    assert not beyond_levels(games("cheater")[:FLAGGED_WITHIN], agreement_ceiling=1.0)  # the view alone: not flagged
    expert = sum(games("expert"), Accuracy())
    assert cheater.share < expert.share and cheater.true_agreement > expert.true_agreement
