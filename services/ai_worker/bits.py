"""Cards as bits, for the numba kernel: set helpers and the trick in progress.

The engine's convention: card index = ``suit * 13 + rank`` (clubs, diamonds,
hearts, spades; 2 to ace), a set of cards is a 52-bit mask held in an
``int64``.  "Lowest"/"highest" across suits is by rank, ties broken by suit
order as in the engine (``lowest_by_rank``/``highest_by_rank``).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from .records import Trick

SPADES = 3
SUIT_FIELD = (1 << 13) - 1
SPADE_MASK = SUIT_FIELD << 39
FULL_DECK = (1 << 52) - 1
MAX_BID = 13
NO_CARD = -1


@njit(cache=True, inline="always")
def lowest_index(mask: int) -> int:
    """The lowest card index in a non-empty set."""
    return np.int64(trailing_zeros(np.int64(mask)))


@njit(cache=True, inline="always")
def highest_index(mask: int) -> int:
    """The highest card index in a non-empty set."""
    return np.int64(63 - leading_zeros(np.int64(mask)))


@njit(cache=True, inline="always")
def popcount(mask: int) -> int:
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def lowest_by_rank(mask: int) -> int:
    """The card of lowest rank in a non-empty set; ties go to the lowest suit."""
    best = NO_CARD
    best_rank = 99
    for suit in range(4):
        field = (mask >> (13 * suit)) & SUIT_FIELD
        if field:
            rank = trailing_zeros(np.int64(field))
            if rank < best_rank:
                best_rank = rank
                best = suit * 13 + rank
    return best


@njit(cache=True, inline="always")
def highest_by_rank(mask: int) -> int:
    """The card of highest rank in a non-empty set; ties go to the highest suit."""
    best = NO_CARD
    best_rank = -1
    for suit in range(4):
        field = (mask >> (13 * suit)) & SUIT_FIELD
        if field:
            rank = 63 - leading_zeros(np.int64(field))
            if rank >= best_rank:
                best_rank = rank
                best = suit * 13 + rank
    return best


@njit(cache=True, inline="always")
def suit_of_mask(mask: int, suit: int) -> int:
    """The cards of ``suit`` in ``mask`` (still at their deck positions)."""
    return mask & (SUIT_FIELD << (13 * suit))


@njit(cache=True, inline="always")
def beating_mask(best: int) -> int:
    """Every card that would beat ``best`` if played to its trick."""
    above = FULL_DECK & ~((np.int64(2) << best) - 1)
    suit = best // 13
    if suit == SPADES:
        return above
    return (above & (SUIT_FIELD << (13 * suit))) | SPADE_MASK


@njit(cache=True, inline="always")
def legal_mask(hand: int, led_suit: int, broken: bool, must_break: bool) -> int:
    """The engine's ``legal_cards``; ``led_suit`` is -1 when leading."""
    if led_suit >= 0:
        follow = hand & (SUIT_FIELD << (13 * led_suit))
        return follow if follow else hand
    if must_break and not broken:
        other = hand & ~SPADE_MASK
        if other:
            return other
    return hand


@njit(cache=True, inline="always")
def add_to_trick(card: int, k: int, seat: int, led_suit: int, best: int, winner: int) -> tuple[int, int, int]:
    """The trick's ``(led suit, winning card, its seat)`` after ``seat`` plays
    ``card`` as the trick's ``k``-th card (0 leads)."""
    if k == 0:
        return card // 13, card, seat
    if beating_mask(best) & (np.int64(1) << card):
        return led_suit, card, seat
    return led_suit, best, winner


@njit(cache=True, inline="always")
def trick_state(table: np.ndarray, trick: Trick) -> tuple[int, int, int]:
    """``(led suit, card winning so far, its seat)`` of the trick in progress,
    whose cards are ``table``'s ``trick`` (``-1, NO_CARD, -1`` before the lead)."""
    cards = table[0].trick
    led_suit = -1
    best = NO_CARD
    winner = -1
    for k in range(trick.n):
        led_suit, best, winner = add_to_trick(cards[k], k, (trick.leader + k) & 3, led_suit, best, winner)
    return led_suit, best, winner
