"""Cards as bits, for the numba kernel: set helpers and the trick in progress.

The engine's convention: card index = ``suit * 13 + rank`` (clubs, diamonds,
hearts, spades; 2 to ace), a set of cards is a bit mask held in an
``int64``.  The house rules' cards continue the spade suit past the ace:
52 is the 2 of spades ranked high, 53 and 54 the jokers, so the spade field
is 16 bits (indexes 39..54, ranks 0..15) and every other suit 13; a card's
suit is :func:`suit_of` (never ``card // 13``, which is 4 for those three).
A game deals 52 of these 55 indexes: its deck (``Rules.deck``) travels in
the kernel's rules.  "Lowest"/"highest" across suits is by rank, ties broken
by suit order as in the engine (``lowest_by_rank``/``highest_by_rank``).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from .records import Trick

SPADES = 3
FIRST_SPADE = 39  # the lowest spade index: every index from here up is a spade
SUIT_FIELD = (1 << 13) - 1  # a side suit's ranks
SPADE_FIELD = (1 << 16) - 1  # the spade suit's ranks: 2..A, then the high 2, Little and Big Joker
SPADE_MASK = SPADE_FIELD << FIRST_SPADE
ALL_INDEXES = (1 << 55) - 1  # every card index of every deck
STANDARD_DECK = (1 << 52) - 1
INDEX_LIMIT = 55  # per-card arrays have this many entries
MAX_BID = 13
NO_CARD = -1
SUIT_TABLE = np.array([min(i // 13, SPADES) for i in range(55)], dtype=np.int64)  # frozen into the machine code


@njit(cache=True, inline="always")
def suit_of(card: int) -> int:
    """The suit of a card index (the house rules' 52..54 are spades)."""
    return SUIT_TABLE[card]


@njit(cache=True, inline="always")
def suit_mask(suit: int) -> int:
    """Every index of ``suit``."""
    return SPADE_MASK if suit == SPADES else SUIT_FIELD << (13 * suit)


@njit(cache=True, inline="always")
def spade_ranks(hand: int, deck: int) -> int:
    """The hand's spades as a standard 13-rank field, ranked within ``deck``'s spades: bit 12 is
    the deck's highest spade (the ace, or the Big Joker with jokers), bit 11 the next, and so on
    (a deck of 15 spades leaves its two lowest out).  Hand readings written for the standard deck
    read the house rules' top spades as its top honours through this."""
    field = (hand >> FIRST_SPADE) & SPADE_FIELD
    deck_field = (deck >> FIRST_SPADE) & SPADE_FIELD
    if deck_field == SUIT_FIELD:
        return field
    ranks = 0
    rank = 12
    while deck_field and rank >= 0:
        top = np.int64(1) << np.int64(63 - leading_zeros(np.int64(deck_field)))
        if field & top:
            ranks |= np.int64(1) << rank
        deck_field &= ~top
        rank -= 1
    return ranks


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
    for suit in range(3):
        field = (mask >> (13 * suit)) & SUIT_FIELD
        if field:
            rank = trailing_zeros(np.int64(field))
            if rank < best_rank:
                best_rank = rank
                best = suit * 13 + rank
    spades = mask >> FIRST_SPADE  # no index is above the spades: no field mask needed
    if spades:
        rank = trailing_zeros(np.int64(spades))
        if rank < best_rank:
            best = FIRST_SPADE + rank
    return best


@njit(cache=True, inline="always")
def highest_by_rank(mask: int) -> int:
    """The card of highest rank in a non-empty set; ties go to the highest suit."""
    best = NO_CARD
    best_rank = -1
    for suit in range(3):
        field = (mask >> (13 * suit)) & SUIT_FIELD
        if field:
            rank = 63 - leading_zeros(np.int64(field))
            if rank >= best_rank:
                best_rank = rank
                best = suit * 13 + rank
    spades = mask >> FIRST_SPADE
    if spades:
        rank = 63 - leading_zeros(np.int64(spades))
        if rank >= best_rank:
            best = FIRST_SPADE + rank
    return best


@njit(cache=True, inline="always")
def suit_of_mask(mask: int, suit: int) -> int:
    """The cards of ``suit`` in ``mask`` (still at their deck positions)."""
    return mask & suit_mask(suit)


@njit(cache=True, inline="always")
def beating_mask(best: int) -> int:
    """Every card that would beat ``best`` if played to its trick."""
    above = ALL_INDEXES & ~((np.int64(2) << best) - 1)
    if best >= FIRST_SPADE:
        return above
    return (above & (SUIT_FIELD << (13 * (best // 13)))) | SPADE_MASK


@njit(cache=True, inline="always")
def legal_mask(hand: int, led_suit: int, broken: bool, must_break: bool) -> int:
    """The engine's ``legal_cards``; ``led_suit`` is -1 when leading."""
    if led_suit >= 0:
        follow = hand & suit_mask(led_suit)
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
        return suit_of(card), card, seat
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
