"""The worker's two questions, routed to the levels: :func:`decide` (a
computer's move, task ``ai.decide``) and :func:`analyse` (a hint, ``ai.hint``).

A level's move is a pure function of one seat's view
(``services.engine.view``) and a seed: the same view and seed always give the
same move, and the move is always in ``view["legal"]``.  Each level's
interpretations of its seed are in its module's docstring.

The levels are the catalogue's (``services.computers.LEVELS``), found by
convention so that a level is listed once: level ``<name>`` is the module
``levels/<name>.py`` and its ``move(view, seed)``; the hint level's module also
has ``analysis(view, seed)``.  Every module is imported here, at worker start,
so a catalogue entry without its module fails at once.  A module that sets
``ANY_PHASE`` answers without the phase check (basic: as the API plays it).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from types import ModuleType
from typing import Any

from services.computers import HINT_LEVEL, LEVEL_NAMES

LEVELS = LEVEL_NAMES
Move = dict[str, Any]  # {"bid": n}, {"card": "QS"}, {"look": True}, {"bid": n, "blind": True}, {"pass": [...]}
PHASES = ("bidding", "passing", "playing")  # the phases a level is asked to move in


def level_module(level: str) -> ModuleType:
    """The module of a catalogue level: ``services.ai_worker.levels.<level>``."""
    return import_module(f"{__package__}.levels.{level}")


_MODULES: dict[str, ModuleType] = {level: level_module(level) for level in LEVELS}
_MOVES: dict[str, Callable[[dict[str, Any], int], Move]] = {level: m.move for level, m in _MODULES.items()}
_ANY_PHASE = frozenset(level for level, m in _MODULES.items() if getattr(m, "ANY_PHASE", False))
_ANALYSIS: Callable[[dict[str, Any], int], dict[str, Any]] = _MODULES[HINT_LEVEL].analysis


def decide(view: dict[str, Any], level: str, seed: int) -> Move:
    """The move of a ``level`` player for the seat whose ``view`` this is:
    ``{"bid": n}`` while bidding, ``{"card": "QS"}`` while playing; with the
    house rules also ``{"look": true}`` or ``{"bid": n, "blind": true}`` for a
    seat that may bid blind, and ``{"pass": ["AS", ...]}`` in the nil exchange."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {list(LEVELS)}")
    check_turn(view)
    if level not in _ANY_PHASE and view["phase"] not in PHASES:
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
    return {"level": HINT_LEVEL, **_ANALYSIS(view, seed)}
