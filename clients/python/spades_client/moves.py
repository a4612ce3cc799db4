"""A move: the operation it is posted to and its body.

A bot answers a view with a move in any of these forms: an ``int`` (a bid), a ``str`` (a card code, or
``"look"`` — the one entry of ``legal`` at a blind decision), a list of card codes (the cards to give in
the nil exchange), a one-key dict as the hint and review bodies name moves (``{"bid": 3}``, ``{"card":
"QS"}``, ``{"cards": [...]}``, ``{"look": true}``), or a :class:`Move` for any other kind of move the server
offers (its path under ``/v1/games/{id}/`` and its body), which the runner and the client post as they are:
a new kind of move needs no change here.  A blind bid is :func:`blind_bid` (an ``int`` is an ordinary bid).
The computer levels' own forms are read too (``{"bid": n, "blind": true}``, ``{"pass": [...]}``), so a level's
decision function plays as a bot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Move:
    """``POST /v1/games/{game_id}/{path}`` with ``body``."""

    path: str
    body: dict[str, Any]


# The move kinds named by their one required body field, and where each is posted (placeBid, playCard,
# passCards).  The blind decision (decideBlind) has no required field: its body is a bid or a look.
MOVE_PATHS: dict[str, str] = {"bid": "bids", "card": "plays", "cards": "passes"}
BLIND_PATH = "blind"
LOOK = "look"  # the entry of a view's ``legal`` at a blind decision


def bid(tricks: int) -> Move:
    return Move(MOVE_PATHS["bid"], {"bid": tricks})


def card(code: str) -> Move:
    return Move(MOVE_PATHS["card"], {"card": code})


def look() -> Move:
    """Decline to bid blind: see the hand, then bid as usual (``decideBlind`` with ``{"look": true}``)."""
    return Move(BLIND_PATH, {"look": True})


def blind_bid(tricks: int) -> Move:
    """Bid ``tricks`` before seeing the hand (0 is blind nil); one of the view's ``legal_blind``."""
    return Move(BLIND_PATH, {"bid": tricks})


def pass_cards(codes: list[str]) -> Move:
    """Give ``codes`` (``pass_count`` cards of the hand) to the partner in the nil exchange."""
    return Move(MOVE_PATHS["cards"], {"cards": list(codes)})


def as_move(answer: Any) -> Move:
    """A bot's answer as a :class:`Move` (see the module's docstring for the forms it takes)."""
    if isinstance(answer, Move):
        return answer
    if isinstance(answer, bool):
        raise TypeError("a move is an int (bid), a str (card or look), a list of cards, a one-key dict or a Move")
    if isinstance(answer, int):
        return bid(answer)
    if isinstance(answer, str):
        return look() if answer == LOOK else card(answer)
    if _card_list(answer):
        return pass_cards(list(answer))
    if isinstance(answer, dict) and answer.keys() == {"bid", "blind"} and answer["blind"] is True:
        return blind_bid(answer["bid"])
    if isinstance(answer, dict) and answer.keys() == {"pass"} and _card_list(answer["pass"]):
        return pass_cards(answer["pass"])
    if isinstance(answer, dict) and len(answer) == 1:
        (kind,) = answer
        if kind == LOOK and answer[kind] is True:
            return look()
        if kind in MOVE_PATHS:
            return Move(MOVE_PATHS[kind], dict(answer))
    raise TypeError(f"not a move: {answer!r}")


def _card_list(value: Any) -> bool:
    return isinstance(value, list | tuple) and all(isinstance(code, str) for code in value)
