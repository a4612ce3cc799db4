"""Must show: the test-only cheater (expert's search on the true deal) is flagged within FLAGGED_WITHIN games, and
the honest strong levels are not over the same games, on the benchmark's recorded per-round figures
(``tests/ratings/data/accuracy_benchmark.json``: ``python -m benchmarks.accuracy --rounds 224 --players
hard,expert,cheater``; true-deal agreement from 8 tricks left only, the true deal solved exactly; docs/ai.md,
"Accuracy")."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from services.ratings import accuracy
from services.ratings.accuracy import Accuracy, beyond_levels

RECORDED = json.loads((Path(__file__).parent / "data" / "accuracy_benchmark.json").read_text(encoding="utf-8"))
FLAGGED_WITHIN = 31  # games: docs/ai.md ("Accuracy") states this figure


def games(player: str) -> list[Accuracy]:
    """The player's recorded rounds grouped into a person's rated games, in order (a recorded round holds two seats'
    decisions: ``rounds_per_game`` of them hold one person's game of about 8 rounds)."""
    rounds = [Accuracy(*row) for row in RECORDED["players"][player]]
    per = RECORDED["rounds_per_game"]
    return [sum(rounds[i : i + per], Accuracy()) for i in range(0, len(rounds), per)]


def games_to_flag(player: str) -> int | None:
    played = games(player)
    return next((n for n in range(1, len(played) + 1) if beyond_levels(played[:n])), None)


def test_the_cheater_is_flagged_within_the_stated_number_of_games() -> None:
    assert FLAGGED_WITHIN >= accuracy.FLAG_MIN_GAMES
    assert len(games("cheater")) >= FLAGGED_WITHIN  # recorded far enough to show it
    assert games_to_flag("cheater") == FLAGGED_WITHIN


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_honest_strong_levels_are_not_flagged_over_the_same_games(level: str) -> None:
    played = games(level)
    assert len(played) >= FLAGGED_WITHIN
    assert games_to_flag(level) is None  # in none of their recorded games


def test_the_ceiling_is_the_best_levels_agreement_and_two_standard_errors() -> None:
    assert RECORDED["true_deal_from"] == accuracy.TRUE_DEAL_FROM  # recorded as scored: from 8 tricks left only
    best = max((sum(games(level), Accuracy()) for level in ("hard", "expert")), key=lambda a: a.true_agreement)
    p, n = best.true_agreement, best.true_cards
    assert math.ceil(100 * (p + 2 * math.sqrt(p * (1 - p) / n))) / 100 == accuracy.LEVEL_CEILING_AGREEMENT


def test_the_cheater_is_told_by_true_deal_agreement_not_by_its_view() -> None:
    cheater = sum(games("cheater")[:FLAGGED_WITHIN], Accuracy())
    assert not beyond_levels(games("cheater")[:FLAGGED_WITHIN], agreement_ceiling=1.0)  # the view alone: not flagged
    expert = sum(games("expert"), Accuracy())
    assert cheater.share < expert.share and cheater.true_agreement > expert.true_agreement
