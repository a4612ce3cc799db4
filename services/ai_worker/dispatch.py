"""The worker's two questions, routed to the levels: :func:`decide` (a
computer's move, task ``ai.decide``) and :func:`analyse` (a hint, ``ai.hint``).

A level's move is a pure function of one seat's view
(``services.engine.view``) and a seed: the same view and seed always give the
same move, and the move is always in ``view["legal"]``.  Each level's
interpretations of its seed are in its module's docstring.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.computers import HINT_LEVEL, LEVEL_NAMES

from .levels import easy, expert, hard, normal, pro, standard

LEVELS = LEVEL_NAMES
Move = dict[str, Any]  # {"bid": n}, {"card": "QS"}, {"look": True}, {"bid": n, "blind": True}, {"pass": [...]}
_MOVES: dict[str, Callable[[dict[str, Any], int], Move]] = {
    "easy": easy.easy_move,
    "standard": standard.move,
    "pro": pro.move,
    "normal": normal.move,
    "hard": hard.move,
    "expert": expert.move,
}
_ANALYSES = {"hard": hard.analysis, "expert": expert.analysis}  # the levels that can answer hints


def decide(view: dict[str, Any], level: str, seed: int) -> Move:
    """The move of a ``level`` player for the seat whose ``view`` this is:
    ``{"bid": n}`` while bidding, ``{"card": "QS"}`` while playing; with the
    house rules also ``{"look": true}`` or ``{"bid": n, "blind": true}`` for a
    seat that may bid blind, and ``{"pass": ["AS", ...]}`` in the nil exchange."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {list(LEVELS)}")
    check_turn(view)
    if level == "basic":
        return easy.basic_move(view)
    if view["phase"] not in ("bidding", "passing", "playing"):
        raise ValueError(f"no move in phase {view['phase']!r}")
    return _MOVES[level](view, seed)


def check_turn(view: dict[str, Any]) -> None:
    """A decision needs a seat's view on that seat's turn, with legal moves."""
    if view.get("you") is None or view.get("turn") != view["you"] or not view.get("legal"):
        raise ValueError("it is not this seat's turn")


def analyse(view: dict[str, Any], seed: int) -> dict[str, Any]:
    """A hint for the seat whose turn ``view`` shows: the hint level's move and
    the figures behind it, one entry per candidate move (see
    :func:`.levels.hard.analysis`), with ``level`` naming who answered."""
    check_turn(view)
    return {"level": HINT_LEVEL, **_ANALYSES[HINT_LEVEL](view, seed)}
