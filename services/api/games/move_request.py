"""A move request as the routes hand it to :func:`services.api.games.commands.make_move`:
the parsed body, ``If-Match`` and the ``Idempotency-Key`` fingerprint."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from services.api.problems import int_param
from services.engine import STANDARD_DECK, Bid, Deck, Look, Move, Pass, Play, mask_of

MOVE_KINDS = ("bid", "play", "blind", "pass")  # the move routes: /bids, /plays, /blind, /passes
MAX_IF_MATCH = 10**15 - 1  # the contract's If-Match: up to 15 digits


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """A client's move as the route parsed it.

    A card's index depends on the game's deck (the 2 of spades with deuces high),
    so a route gives the validated ``kind`` and ``body`` and the command reads them
    with the game's rules (:func:`parse_move`); ``move`` is for callers that built
    the engine move themselves."""

    token: str
    move: Move | None = None
    if_match: int | None = None  # the version the client saw (If-Match)
    idempotency_key: str | None = None
    fingerprint: str | None = None  # of kind and body; set with an idempotency key
    kind: str | None = None
    body: dict[str, Any] | None = None

    def move_in(self, deck: Deck) -> Move:
        """The engine move, its cards read in ``deck`` (raises ``ValueError`` for a card not in it)."""
        if self.move is not None:
            return self.move
        assert self.kind is not None and self.body is not None
        return parse_move(self.kind, self.body, deck)


def parse_if_match(header: str | None) -> int | None:
    """``"7"``, ``W/"7"`` or ``7`` → 7; anything else is a 400."""
    if header is None:
        return None
    text = header.strip()
    if text.startswith("W/"):
        text = text[2:]
    return int_param(text.strip('"'), "If-Match", MAX_IF_MATCH, 'must be an ETag like "7"')


def request_fingerprint(kind: str, body: dict[str, Any]) -> str:
    """What an ``Idempotency-Key`` is bound to: the same key with another body is refused."""
    return hashlib.sha256(f"{kind}:{json.dumps(body, sort_keys=True)}".encode()).hexdigest()


def parse_move(kind: str, body: dict[str, Any], deck: Deck = STANDARD_DECK) -> Move:
    """The engine move of a validated move body; raises ``ValueError`` for a card not in ``deck``."""
    if kind == "bid":
        return Bid(body["bid"])
    if kind == "play":
        return Play(deck.parse(body["card"]))
    if kind == "blind":
        return Look() if body.get("look") else Bid(body["bid"], blind=True)
    if kind == "pass":
        return Pass(mask_of(deck.parse(code) for code in body["cards"]))
    raise ValueError(f"not a move kind: {kind!r}")


def computer_move(move: dict[str, Any], deck: Deck = STANDARD_DECK) -> Move:
    """A computer player's decision (``{"bid": n}``, ``{"card": c}``; with house rules
    ``{"bid": n, "blind": true}``, ``{"look": true}``, ``{"pass": [c, ...]}``) as the engine's
    move, its cards read in the game's ``deck`` (``ValueError`` for a card not in it)."""
    if "card" in move:
        return Play(deck.parse(move["card"]))
    if "pass" in move:
        return Pass(mask_of(deck.parse(code) for code in move["pass"]))
    if move.get("look"):
        return Look()
    return Bid(int(move["bid"]), blind=bool(move.get("blind", False)))
