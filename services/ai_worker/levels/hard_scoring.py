"""What a finished round is worth to hard's search: the engine's round scoring,
compiled, and the objective built on it.

:func:`side_points` is ``services.engine.scoring.side_round_points`` on the
kernel's arrays (``tests/ai_worker/levels/test_hard_scoring.py`` holds the two
equal over random rounds and rule options).  :func:`round_value` is hard's
objective: the round's points for this seat's side minus the other side's
(individual: minus the mean of the other seats), each bag charged its share
of the bag penalty (``bag_penalty / bag_limit``), plus ``GAME_WEIGHT`` when
the round's scores end the game (win or lose score reached, or the mercy
margin, one side on top) with this side on top, and minus it when another
side is.  ``blind`` (a 4-bit set) names the seats that bid blind: a blind
nil is worth ``blind_nil_value``, a blind bid's tricks count twice, and with
10 for 200 a contract of 10 or more is worth its bonus, with Boston one of 13 is
worth ``BOSTON_VALUE``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from services.engine import BOSTON_CONTRACT, BOSTON_VALUE, TEN_FOR_200_CONTRACT

from ..records import House, Rules

GAME_WEIGHT = 200.0  # what ending the game this round is worth, in round points


@njit(cache=True)
def side_points(
    side: int, bids: np.ndarray, won: np.ndarray, rules: Rules, house: House, blind: int
) -> tuple[int, int]:
    """``(points before any bag penalty, bags gained)`` of one side this round –
    the engine's ``side_round_points``."""
    contract = 0
    blind_tricks = 0
    counted = 0
    points = 0
    n_seats = 2 if rules.partnership else 1
    for i in range(n_seats):
        s = side + 2 * i
        if bids[s] == 0:
            value = house.blind_nil_value if (blind >> s) & 1 else rules.nil_value
            points += value if won[s] == 0 else -value
            if rules.nil_counts:
                counted += won[s]
        else:
            contract += bids[s]
            counted += won[s]
            if (blind >> s) & 1:
                blind_tricks += bids[s]
    value = 10 * (contract + blind_tricks)
    if house.ten_for_200 and contract >= TEN_FOR_200_CONTRACT:
        value = house.ten_for_200_value
    if house.boston and contract == BOSTON_CONTRACT:
        value = BOSTON_VALUE
    bags = 0
    if counted >= contract:
        points += value + (counted - contract)
        bags = counted - contract
    elif rules.set_negative:
        points -= value
    return points, bags


@njit(cache=True)
def round_scores(
    bids: np.ndarray,
    won: np.ndarray,
    rules: Rules,
    house: House,
    bags_before: np.ndarray,
    scores_before: np.ndarray,
    blind: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per side (2 or 4 entries used): points before any bag penalty, bags
    gained, and the score after the round (bag penalties included) – the
    engine's ``score_round`` added to ``scores_before``."""
    points = np.zeros(4, dtype=np.int64)
    bags = np.zeros(4, dtype=np.int64)
    finals = np.zeros(4, dtype=np.int64)
    for side in range(2 if rules.partnership else 4):
        points[side], bags[side] = side_points(side, bids, won, rules, house, blind)
        hits = (bags_before[side] + bags[side]) // rules.bag_limit if rules.bag_penalty > 0 else 0
        finals[side] = scores_before[side] + points[side] - hits * rules.bag_penalty
    return points, bags, finals


@njit(cache=True)
def round_value(
    me: int,
    bids: np.ndarray,
    won: np.ndarray,
    rules: Rules,
    house: House,
    bags_before: np.ndarray,
    scores_before: np.ndarray,
    blind: int,
) -> float:
    """What a finished round is worth to ``me`` (see the module docstring)."""
    sides = 2 if rules.partnership else 4
    my_side = me & 1 if rules.partnership else me
    charge = rules.bag_penalty / rules.bag_limit if rules.bag_penalty > 0 else 0.0
    points, bags, finals = round_scores(bids, won, rules, house, bags_before, scores_before, blind)
    others = 0.0
    for side in range(sides):
        if side != my_side:
            others += points[side] - charge * bags[side]
    value = (points[my_side] - charge * bags[my_side]) - others / (sides - 1)
    top = finals[0]
    bottom = finals[0]
    ended = False
    for side in range(sides):
        top = max(top, finals[side])
        bottom = min(bottom, finals[side])
        if finals[side] >= rules.win_score or (rules.has_lose_score and finals[side] <= rules.lose_score):
            ended = True
    if house.mercy_margin > 0 and top - bottom >= house.mercy_margin:
        ended = True
    if ended:
        leaders = 0
        for side in range(sides):
            if finals[side] == top:
                leaders += 1
        if leaders == 1:
            value += GAME_WEIGHT if finals[my_side] == top else -GAME_WEIGHT
    return value
