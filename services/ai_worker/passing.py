"""The nil exchange (house rule ``nil_pass_cards``): which cards a seat gives its partner.

After the bids, a side with a nil bidder exchanges ``nil_pass_cards`` cards
face down: each partner gives the other that many (``docs/rules.md``, "Nil
passing").  Two choices, both pure functions of the seat's own hand:

* :func:`rank_pass` (seed 000's standard and pro, which know only "highest"
  and "lowest" cards): a nil bidder gives its highest cards by rank, its
  partner its lowest.
* :func:`nil_pass` (seed 002's normal and hard, and the exchange inside
  hard's rollouts): a nil bidder gives its most dangerous cards – its top
  spades before anything else (a spade can be forced to win a spade lead),
  then its highest side cards; its partner, which must take tricks for both,
  keeps its spades and high cards and gives its lowest side cards, from its
  shortest side suits first, so the nil bidder gets cards to duck with and
  the partner comes nearer a void to trump in with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from services.computers import deck_of
from services.engine import codes, mask_of

from .bits import FIRST_SPADE, SPADES, highest_by_rank, lowest_by_rank, lowest_index, popcount, suit_mask, suit_of

SPADE_DANGER = 3  # a spade is as dangerous to a nil as a side card this many ranks higher


@njit(cache=True)
def rank_pass(hand: int, count: int, nil_bidder: bool) -> int:
    """Seed 000's levels: the ``count`` highest cards by rank for a nil bidder, else the lowest (a mask)."""
    given = 0
    for _ in range(count):
        card = highest_by_rank(hand) if nil_bidder else lowest_by_rank(hand)
        given |= np.int64(1) << card
        hand &= ~(np.int64(1) << card)
    return given


@njit(cache=True, inline="always")
def _danger(card: int) -> int:
    """How likely ``card`` is to win a trick a nil bidder wants to lose: its rank, spades raised."""
    suit = suit_of(card)
    return card - FIRST_SPADE + SPADE_DANGER if suit == SPADES else card - 13 * suit


@njit(cache=True)
def nil_pass(hand: int, count: int, nil_bidder: bool) -> int:
    """Normal's and hard's cards to give (a mask): see the module docstring."""
    given = 0
    for _ in range(count):
        best = -1
        best_key = -(1 << 30)  # below every key: a partner left with spades only gives spades
        rest = hand
        while rest:
            card = lowest_index(rest)
            rest &= rest - 1
            suit = suit_of(card)
            if nil_bidder:
                key = _danger(card) * 4 + suit  # ties: the higher suit
            else:
                spade = suit == SPADES
                length = popcount(hand & suit_mask(suit))
                key = -((card - 13 * suit) * 16 + length) - (1000 if spade else 0)
            if key > best_key:
                best_key = key
                best = card
        given |= np.int64(1) << best
        hand &= ~(np.int64(1) << best)
    return given


@njit(cache=True)
def exchange(
    hands: np.ndarray, bids: np.ndarray, blind: int, count: int, blind_only: bool, chooser: int, chosen: int
) -> None:
    """The nil exchange in a simulated round, in place on ``hands``: every side with a nil bidder
    (a blind one with ``blind_only``) gives and receives :func:`nil_pass` cards at once, except
    that seat ``chooser`` (-1: none) gives ``chosen``."""
    for side in range(2):
        triggered = False
        for s in (side, side + 2):
            if bids[s] == 0 and (not blind_only or (blind >> s) & 1):
                triggered = True
        if not triggered:
            continue
        first = chosen if chooser == side else nil_pass(hands[side], count, bids[side] == 0)
        second = chosen if chooser == side + 2 else nil_pass(hands[side + 2], count, bids[side + 2] == 0)
        hands[side] = hands[side] & ~first | second
        hands[side + 2] = hands[side + 2] & ~second | first


LOOK = {"look": True}  # the move of a level that never bids blind, while its hand is hidden


def pass_move(view: dict[str, Any], choose: Callable[[int, int, bool], int]) -> dict[str, Any]:
    """The nil exchange's move for the seat whose view this is: ``{"pass": [codes]}``, the cards
    ``choose(hand, count, nil_bidder)`` (:func:`rank_pass` or :func:`nil_pass`) picks."""
    deck = deck_of(view)
    hand = mask_of(deck.parse(c) for c in view["hand"])
    nil_bidder = view["bids"][view["you"]] == 0
    return {"pass": codes(int(choose(hand, view["pass_count"], nil_bidder)))}
