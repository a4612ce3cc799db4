"""A house-rules round's two extra review decisions (a blind look before the bid, a nil exchange's pass
after it), as the review answers them: one copy for the review's logic test and its browser test."""

from __future__ import annotations

import copy


def blind_look() -> dict:
    """Looking at the hand where a blind nil was worth 6 points more."""
    return copy.deepcopy(_LOOK)


def nil_pass() -> dict:
    """The nil exchange's pass, as good as the best."""
    return copy.deepcopy(_PASS)


_LOOK = {
    "made": {"look": True},
    "best": {"bid": 0, "blind": True},
    "candidates": [{"look": True, "value": 20.0}, {"bid": 0, "blind": True, "value": 26.0, "make_chance": 0.5}],
    "given_away": 6.0,
    "accurate": False,
}
_PASS = {
    "made": {"pass": ["2C", "3D"]},
    "best": {"pass": ["3D", "2C"]},
    "candidates": [{"pass": ["2C", "3D"], "value": 4.0}, {"pass": ["2C", "4H"], "value": 1.0}],
    "given_away": 0.0,
    "accurate": True,
}
