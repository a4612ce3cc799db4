"""Seed 002's easiest level, "mudah" (named basic here), as pure Python.

    basic_move(view) -> {"bid": n} | {"card": "QS"} | {"look": True} | {"pass": ["2H", "3C"]}

Interpretations (seed 002: "bids from its aces and kings, plays its lowest
legal card"):

* Bid: one trick per ace and per king in the hand, at least 1.  If that bid
  is not legal (team minimum or maximum, nil off), the nearest legal bid,
  the lower on a tie – never nil unless nil is the only legal bid: a bid of
  0 is a promise to take no trick, not a low estimate.
* Play: the lowest legal card by rank, ties to the lowest suit (clubs,
  diamonds, hearts, spades) – the engine's ``lowest_by_rank``.

The house rules, applied the obvious way: basic never bids blind (it looks
at its hand and bids as above); the jokers and the high 2 of spades count
as honours like aces and kings; in the nil exchange it gives its lowest
cards by rank.

It reads only the seat's view, needs no simulation, and is what the API
plays itself when no worker answers a computer's turn in time.
"""

from __future__ import annotations

from typing import Any

from services.engine import Deck, card_code, lowest_by_rank, mask_of

ACE, KING = 12, 11
TOP_SPADES = 52  # the high 2 of spades and the jokers: every index from here on outranks the aces


def deck_of(view: dict[str, Any]) -> Deck:
    """The game's deck, from the rules its view shows (how its card codes read)."""
    rules = view["rules"]
    return Deck(rules.get("jokers", False), rules.get("deuces_high", False))


def nearest_legal(bid: int, legal: list[int]) -> int:
    """``bid`` if legal, else the nearest legal bid (the lower on a tie).

    Nil (0) is chosen only when asked for or when it is the only legal bid,
    so rounding a weak estimate never turns it into a nil contract."""
    candidates = [b for b in legal if b != 0] if bid != 0 else legal
    return min(candidates or legal, key=lambda b: (abs(b - bid), b))


def basic_bid(view: dict[str, Any]) -> int:
    """Aces and kings, at least one, as the nearest legal bid."""
    deck = deck_of(view)
    cards = [deck.parse(code) for code in view["hand"]]
    honours = sum(1 for card in cards if card >= TOP_SPADES or card % 13 in (ACE, KING))
    return nearest_legal(max(1, honours), view["legal"])


def basic_card(view: dict[str, Any]) -> str:
    """The lowest legal card by rank (ties: clubs, diamonds, hearts, spades)."""
    deck = deck_of(view)
    return card_code(lowest_by_rank(mask_of(deck.parse(c) for c in view["legal"])))


def basic_pass(view: dict[str, Any]) -> list[str]:
    """The nil exchange: the hand's ``pass_count`` lowest cards by rank."""
    deck = deck_of(view)
    left = mask_of(deck.parse(c) for c in view["legal"])
    given = []
    for _ in range(view["pass_count"]):
        card = lowest_by_rank(left)
        given.append(card_code(card))
        left &= ~(1 << card)
    return given


def basic_move(view: dict[str, Any]) -> dict[str, Any]:
    """Basic's move for the seat whose turn this view shows."""
    if view.get("you") is None or view.get("turn") != view["you"] or not view.get("legal"):
        raise ValueError("it is not this seat's turn")
    if view.get("hand_hidden"):
        return {"look": True}  # basic never bids blind
    if view["phase"] == "bidding":
        return {"bid": basic_bid(view)}
    if view["phase"] == "passing":
        return {"pass": basic_pass(view)}
    return {"card": basic_card(view)}
