"""What a move did, as the rule that did it reports it.

:func:`services.engine.apply_with_events` returns these beside the new state,
in the order they happened: a bid is one :class:`BidMade` (a blind bid
then a :class:`HandShown`); looking at a hand one could have bid blind on is
a :class:`HandShown`; a card given in the nil exchange is a
:class:`CardsPassed`, the last of them then :class:`ExchangeDone`; a card is a
:class:`CardPlayed`, then a :class:`TrickWon` when it completes a trick, then
a :class:`RoundScored` when that trick ends the round, then either
:class:`GameOver` or the next round's :class:`RoundStarted`.  Each is
built where its rule is applied (``services/engine/game.py``), so a caller
never has to work it out by comparing two states.

Cards are indices, hands are card masks (``services.engine.codes`` gives
their codes), as everywhere in the engine.  :class:`RoundStarted` holds every
seat's dealt hand: whoever passes it on shows each seat only its own, and
not even that to a seat in ``hidden`` (it may bid blind) until its
:class:`HandShown`.  :class:`CardsPassed` is for the giver and its partner only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import RoundRecord


@dataclass(frozen=True, slots=True)
class BidMade:
    seat: int
    tricks: int  # 0 is nil
    blind: bool = False  # made before the seat saw its hand


@dataclass(frozen=True, slots=True)
class HandShown:
    """A seat that could bid blind sees its hand: it looked, or it bid blind (secret to the others)."""

    seat: int
    hand: int  # card mask


@dataclass(frozen=True, slots=True)
class CardsPassed:
    """A seat set aside cards for its partner in the nil exchange (the cards: secret to everyone else)."""

    seat: int
    to: int
    cards: int  # card mask


@dataclass(frozen=True, slots=True)
class ExchangeDone:
    """Every passing seat has chosen: the cards reached the partners (each seat's new hand, secret to the others)."""

    hands: tuple[int, ...]  # card masks, per seat


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class TrickWon:
    """A completed trick, as ``replay_tricks`` gives it: ``trick_view(leader, cards, winner)`` renders it."""

    leader: int
    cards: tuple[int, ...]  # in play order, from the leader
    winner: int


@dataclass(frozen=True, slots=True)
class RoundScored:
    """A finished round: ``record`` is the round as the game keeps it (bids, plays, points with bag
    penalties included, bag penalties, scores and bags after the round, per side), so
    ``round_view(round, record, rules)`` renders it as views show it."""

    round: int
    tricks_won: tuple[int, ...]  # per seat
    record: RoundRecord


@dataclass(frozen=True, slots=True)
class GameOver:
    winner: tuple[int, ...]  # the winning seats
    scores: tuple[int, ...]  # per side


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A round dealt: who dealt, who bids first, and each seat's 13 cards (secret to the others)."""

    round: int
    dealer: int
    turn: int
    hands: tuple[int, ...]  # card masks, per seat
    hidden: tuple[int, ...] = ()  # seats that may bid blind: their hand is not theirs to see yet


Event = BidMade | HandShown | CardsPassed | ExchangeDone | CardPlayed | TrickWon | RoundScored | GameOver | RoundStarted
