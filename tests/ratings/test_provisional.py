"""The provisional rule (services/ratings/provisional.py): both thresholds, their edges, and the figures its
docstring gives for how fast the model's sigma falls on each board."""

from __future__ import annotations

import random

import pytest

from services.ratings.model import INITIAL, Rating, rate
from services.ratings.provisional import PROVISIONAL_GAMES, PROVISIONAL_SIGMA, RULE, provisional


@pytest.mark.parametrize(
    ("sigma", "games", "expected"),
    [
        (INITIAL.sigma, 0, True),  # a new rating
        (PROVISIONAL_SIGMA, PROVISIONAL_GAMES, False),  # both at the line: through
        (PROVISIONAL_SIGMA + 0.001, PROVISIONAL_GAMES, True),  # still unsure after the games
        (PROVISIONAL_SIGMA, PROVISIONAL_GAMES - 1, True),  # sure enough, one game short
        (1.0, 1000, False),
    ],
)
def test_a_rating_is_provisional_while_either_threshold_is_not_passed(sigma: float, games: int, expected: bool):
    assert provisional(Rating(25.0, sigma), games) is expected


def test_mu_plays_no_part():
    assert provisional(Rating(60.0, 5.0), 100) and not provisional(Rating(-10.0, 2.0), 100)


def test_the_rule_names_both_thresholds():
    assert RULE == "sigma<=4,games>=30"


def games_to_pass_the_sigma(board: str, seed: int = 1) -> int:
    """Games four new drifting players play each other, results at random, until the first one's sigma is
    under the threshold."""
    rng = random.Random(seed)
    ratings = [INITIAL] * 4
    for game in range(1, 500):
        places = rng.sample(range(1, 5), 4) if board == "individual" else rng.choice(([1, 2], [2, 1]))
        ratings = rate(board, ratings, places)
        if ratings[0].sigma <= PROVISIONAL_SIGMA:
            return game
    raise AssertionError("sigma never fell under the threshold")


def test_the_game_count_binds_on_the_individual_board_and_sigma_in_partnership():
    """Why both thresholds: three opponents a game take sigma under the line well before 30 games, a team's
    result well after."""
    assert games_to_pass_the_sigma("individual") < PROVISIONAL_GAMES / 2
    assert games_to_pass_the_sigma("partnership") > PROVISIONAL_GAMES
