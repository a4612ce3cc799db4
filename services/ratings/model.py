"""The rating model: one rating per player and board, updated from a game's finishing places.

openskill's full-pairing Bradley-Terry model (Weng & Lin, 2011): a Bayesian rating of skill ``mu`` with
uncertainty ``sigma`` that takes teams and any number of sides, so one model rates both boards —

- **partnership**: two teams of two (seats 0 & 2 against 1 & 3); each player moves with the team's result,
  weighted by their own uncertainty;
- **individual**: four sides of one (cutthroat), ranked by their final places.

A game with a winner ranks the winning side first and the others by final score; sides with equal scores
share a place (a tie).  Players are ranked by :func:`ordinal` (``mu − 3·sigma``, a 99.7 % lower bound of
their skill): a new player starts at 0 and climbs as the model grows sure of them, so a lucky first game does
not top a leaderboard.

**Drift**: before each game a person's or a bot's uncertainty grows a little (openskill's ``tau``, 25/300), since
their skill changes and a rating must keep following it; a computer level's does not (``steady``): a level's play
never changes, so its rating converges on its strength instead of hovering within a drift-sized band.  The shown rating is :func:`display`, the ordinal on a familiar scale (1500 + 40 ×
ordinal: a new player shows 1500), so what is shown orders players as the leaderboards do.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import BradleyTerryFull

BOARDS = ("partnership", "individual")
PARTNERSHIP_TEAMS = ((0, 2), (1, 3))
MU = 25.0
SIGMA = MU / 3
Z = 3.0  # the ordinal's width in sigmas: ranked by a 99.7 % lower bound
TAU = MU / 300  # the drift added to a changing player's sigma before each game (openskill's default)
DISPLAY_BASE, DISPLAY_SCALE = 1500, 40

_MODEL = BradleyTerryFull(mu=MU, sigma=SIGMA, tau=0.0)  # the drift is added here, per player (see module doc)


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating on one board."""

    mu: float = MU
    sigma: float = SIGMA


INITIAL = Rating()


def ordinal(rating: Rating) -> float:
    """The ranking value: a conservative estimate of skill (``mu − 3·sigma``)."""
    return rating.mu - Z * rating.sigma


def display(rating: Rating) -> int:
    """The rating a person is shown (an integer on the 1500 scale)."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * ordinal(rating))


def interval(rating: Rating, z: float = 1.96) -> tuple[float, float]:
    """The interval of skill ``mu`` at ``z`` sigmas (95 % by default), in the model's units."""
    return rating.mu - z * rating.sigma, rating.mu + z * rating.sigma


def board_of(scoring: str) -> str:
    """The board a game is rated on, from its rules' ``scoring``."""
    if scoring not in BOARDS:
        raise ValueError(f"no board for scoring {scoring!r}")
    return scoring


def places(board: str, scores: Sequence[int], winner: Sequence[int], forfeits: Sequence[int] = ()) -> list[int]:
    """Each side's place (1 = best; equal places are ties): a side with a seat in ``forfeits`` below every side
    without one, then the winning side first, then by final score.

    ``scores`` are the sides' final scores (two teams, or four seats), ``winner`` the winning seats."""
    sides = board_sides(board)
    won = [bool(set(side) & set(winner)) for side in sides]
    kept = [not set(side) & set(forfeits) for side in sides]
    keys = [(kept[i], w, scores[i]) for i, w in enumerate(won)]
    return [1 + sum(other > key for other in keys) for key in keys]


def rate(
    board: str, ratings: Sequence[Rating], side_places: Sequence[int], steady: Sequence[bool] = (False,) * 4
) -> list[Rating]:
    """The four seats' new ratings after a game: ``ratings`` by seat, ``side_places`` by side (:func:`places`);
    ``steady`` by seat: a computer level, whose rating takes no drift (see the module doc)."""
    sides = board_sides(board)
    if len(ratings) != 4 or len(side_places) != len(sides) or len(steady) != 4:
        raise ValueError("four seats' ratings, a place for each side and whether each seat is steady")
    sigmas = [r.sigma if steady[s] else math.hypot(r.sigma, TAU) for s, r in enumerate(ratings)]
    teams = [[_MODEL.create_rating([ratings[s].mu, sigmas[s]]) for s in side] for side in sides]
    rated = _MODEL.rate(teams, ranks=[float(p) for p in side_places])
    new = list(ratings)
    for side, team in zip(sides, rated, strict=True):
        for seat, player in zip(side, team, strict=True):
            new[seat] = Rating(player.mu, player.sigma)
    return new


def board_sides(board: str) -> tuple[tuple[int, ...], ...]:
    """The seats of each side on ``board``."""
    if board == "partnership":
        return PARTNERSHIP_TEAMS
    if board == "individual":
        return ((0,), (1,), (2,), (3,))
    raise ValueError(f"unknown board {board!r}")
