"""Seed 002's easiest level, "mudah" (named basic here), as pure Python.

    basic_move(view) -> {"bid": n} | {"card": "QS"}

Interpretations (seed 002: "bids from its aces and kings, plays its lowest
legal card"):

* Bid: one trick per ace and per king in the hand, at least 1.  If that bid
  is not legal (team minimum or maximum, nil off), the nearest legal bid,
  the lower on a tie – never nil unless nil is the only legal bid: a bid of
  0 is a promise to take no trick, not a low estimate.
* Play: the lowest legal card by rank, ties to the lowest suit (clubs,
  diamonds, hearts, spades) – the engine's ``lowest_by_rank``.

It reads only the seat's view, needs no simulation, and is what the API
plays itself when no worker answers a computer's turn in time.
"""

from __future__ import annotations

from typing import Any

from services.engine import card_code, lowest_by_rank, mask_of, parse_card

ACE, KING = 12, 11


def nearest_legal(bid: int, legal: list[int]) -> int:
    """``bid`` if legal, else the nearest legal bid (the lower on a tie).

    Nil (0) is chosen only when asked for or when it is the only legal bid,
    so rounding a weak estimate never turns it into a nil contract."""
    candidates = [b for b in legal if b != 0] if bid != 0 else legal
    return min(candidates or legal, key=lambda b: (abs(b - bid), b))


def basic_bid(view: dict[str, Any]) -> int:
    """Aces and kings, at least one, as the nearest legal bid."""
    honours = sum(1 for code in view["hand"] if parse_card(code) % 13 in (ACE, KING))
    return nearest_legal(max(1, honours), view["legal"])


def basic_card(view: dict[str, Any]) -> str:
    """The lowest legal card by rank (ties: clubs, diamonds, hearts, spades)."""
    return card_code(lowest_by_rank(mask_of(parse_card(c) for c in view["legal"])))


def basic_move(view: dict[str, Any]) -> dict[str, Any]:
    """Basic's move for the seat whose turn this view shows."""
    if view.get("you") is None or view.get("turn") != view["you"] or not view.get("legal"):
        raise ValueError("it is not this seat's turn")
    if view["phase"] == "bidding":
        return {"bid": basic_bid(view)}
    return {"card": basic_card(view)}
