"""A move: the operation it is posted to and its body.

A bot answers a view with a move in any of these forms: an ``int`` (a bid), a ``str`` (a card code), a
dict as the hint and review bodies name moves (``{"bid": 3}``, ``{"card": "QS"}``; with the house rules
``{"look": true}``, ``{"bid": 0, "blind": true}``, ``{"pass": ["AS", "KH"]}``), or a
:class:`Move` for any other kind of move the server offers (its path under ``/v1/games/{id}/`` and its
body), which the runner and the client post as they are: a new kind of move needs no change here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Move:
    """``POST /v1/games/{game_id}/{path}`` with ``body``."""

    path: str
    body: dict[str, Any]


# The move kinds the hint and review bodies name, and where each is posted (placeBid, playCard).
MOVE_PATHS: dict[str, str] = {"bid": "bids", "card": "plays"}


def bid(tricks: int) -> Move:
    return Move(MOVE_PATHS["bid"], {"bid": tricks})


def card(code: str) -> Move:
    return Move(MOVE_PATHS["card"], {"card": code})


def as_move(answer: Any) -> Move:
    """A bot's answer as a :class:`Move` (see the module's docstring for the forms it takes)."""
    if isinstance(answer, Move):
        return answer
    if isinstance(answer, bool):
        raise TypeError("a move is an int (bid), a str (card), a one-key dict or a Move, not a bool")
    if isinstance(answer, int):
        return bid(answer)
    if isinstance(answer, str):
        return card(answer)
    if isinstance(answer, dict) and len(answer) == 1:
        (kind,) = answer
        if kind in MOVE_PATHS:
            return Move(MOVE_PATHS[kind], dict(answer))
    house = _house_rules_move(answer) if isinstance(answer, dict) else None
    if house is not None:
        return house
    raise TypeError(f"not a move: {answer!r}")


def _house_rules_move(named: dict[str, Any]) -> Move | None:
    """A house-rules move as hints and reviews name it (openapi ``LookMove``, ``BlindBidMove``,
    ``PassMove``), posted as the server takes it: ``blind`` ``{"look": true}`` or ``{"bid": n}``,
    ``passes`` ``{"cards": [...]}``."""
    if named == {"look": True}:
        return Move("blind", {"look": True})
    if set(named) == {"bid", "blind"} and named["blind"] is True and isinstance(named["bid"], int):
        return Move("blind", {"bid": named["bid"]})
    if set(named) == {"pass"} and isinstance(named["pass"], list):
        return Move("passes", {"cards": list(named["pass"])})
    return None
