"""The standard rule and whole-round playouts with it (seed 000's simulations).

:func:`standard_choice` is the one implementation of the standard playing
strategy: live standard play (:mod:`.levels.standard`), pro's trick
completions and every playout of the Monte Carlo bids use it.  Its
interpretations of seed 000 are in :mod:`.levels.standard`'s docstring.

``broken`` in :func:`playout`: every card not in a hand has been played (the
kernel only plays whole rounds), so "a spade was played on an earlier trick"
is exactly "some spade of the deck is missing from the four hands" at a trick's start,
which spares tracking it card by card.  Playouts from mid-round positions
start from the view's ``spades_broken``, and the same test then stays exact
because cards already played are absent from the hands too.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import bits
from .records import Rules, Trick


@njit(cache=True, inline="always")
def bid_made(seat: int, bids: np.ndarray, won: np.ndarray, rules: Rules) -> bool:
    """Whether ``seat`` plays as "bid already made".

    Nil is always made (a nil bidder tries to lose every trick).  In
    partnership the contract is the team's (non-nil bids added) and the
    tricks are the team's tricks as the engine scores them.
    """
    bid = bids[seat]
    if bid == 0:
        return True
    if not rules.partnership:
        return won[seat] >= bid
    partner = (seat + 2) & 3
    partner_bid = bids[partner]
    counted = won[seat]
    if partner_bid != 0 or rules.nil_counts:
        counted += won[partner]
    return counted >= bid + partner_bid


@njit(cache=True, inline="always")
def partner_nil_alive(seat: int, bids: np.ndarray, won: np.ndarray, partnership: bool) -> bool:
    """The seat's partner bid nil and has taken no trick yet."""
    partner = (seat + 2) & 3
    return partnership and bids[partner] == 0 and won[partner] == 0


@njit(cache=True, inline="always")
def standard_choice(
    hand: int,
    led_suit: int,
    best: int,
    partner_winning: bool,
    made: bool,
    broken: bool,
    must_break: bool,
    partner_nil: bool,
) -> int:
    """The standard strategy's card.

    ``led_suit`` is -1 when leading; ``best`` is the card winning the trick
    so far; ``partner_winning`` says that card is the partner's, and
    ``partner_nil`` that this partner's nil is still alive: then the trick is
    overtaken with the cheapest card that beats it, when there is one.
    """
    legal = bits.legal_mask(hand, led_suit, broken, must_break)
    if led_suit < 0:
        return bits.lowest_by_rank(legal) if made else bits.highest_by_rank(legal)
    beat = legal & bits.beating_mask(best)
    if made or partner_winning:
        if partner_nil and beat:  # (partner_nil implies partner_winning)
            return bits.lowest_index(beat)
        safe = legal & ~beat
        if safe:
            return bits.lowest_by_rank(safe)
        return bits.highest_by_rank(legal) if made else bits.lowest_by_rank(legal)
    follow = hand & bits.suit_mask(led_suit)
    if follow:
        return bits.highest_index(follow) if beat else bits.lowest_index(follow)
    if beat:  # void: only spades can beat; trump with the lowest winning one
        return bits.lowest_index(beat)
    return bits.lowest_by_rank(legal)


@njit(cache=True)
def standard_card(seat: int, hand: int, table: np.ndarray, trick: Trick, rules: Rules) -> int:
    """One standard decision of ``seat`` holding ``hand``; ``table`` (a
    ``TABLE``, or a ``POSITION`` for live play) gives the bids, the tricks won
    and the trick's cards."""
    t = table[0]
    led_suit, best, winner = bits.trick_state(table, trick)
    partner_winning = rules.partnership and trick.n > 0 and winner == ((seat + 2) & 3)
    made = bid_made(seat, t.bids, t.won, rules)
    partner_nil = partner_winning and partner_nil_alive(seat, t.bids, t.won, rules.partnership)
    return standard_choice(hand, led_suit, best, partner_winning, made, trick.broken, rules.must_break, partner_nil)


@njit(cache=True)
def play_trick(table: np.ndarray, trick: Trick, rules: Rules) -> int:
    """Complete the trick in progress with every remaining seat playing
    standard; updates the ``TABLE``'s hands and tricks won and returns the
    winning seat."""
    t = table[0]
    hands, won, bids = t.hands, t.won, t.bids
    led_suit, best, winner = bits.trick_state(table, trick)
    nils_alive = 0  # seats whose nil is alive, as a 4-bit set (tricks won don't change within a trick)
    if rules.partnership:
        for s in range(4):
            if bids[s] == 0 and won[s] == 0:
                nils_alive |= 1 << s
    for k in range(trick.n, 4):
        seat = (trick.leader + k) & 3
        partner_winning = rules.partnership and k > 0 and winner == ((seat + 2) & 3)
        made = bid_made(seat, bids, won, rules)
        partner_nil = partner_winning and (nils_alive >> ((seat + 2) & 3)) & 1 == 1
        card = standard_choice(
            hands[seat], led_suit, best, partner_winning, made, trick.broken, rules.must_break, partner_nil
        )
        hands[seat] &= ~(np.int64(1) << card)
        led_suit, best, winner = bits.add_to_trick(card, k, seat, led_suit, best, winner)
    won[winner] += 1
    return winner


@njit(cache=True)
def playout(table: np.ndarray, trick: Trick, rules: Rules) -> None:
    """Play the round out from a position with every seat standard.

    The ``TABLE``'s hands and tricks won are updated in place (``won`` ends
    as the round's tricks per seat).  A trick in progress is completed first.
    """
    hands = table[0].hands
    leader = trick.leader
    broken = trick.broken
    deck_spades = rules.deck & bits.SPADE_MASK
    if trick.n > 0:
        leader = play_trick(table, trick, rules)
        for k in range(trick.n):
            if table[0].trick[k] >= bits.FIRST_SPADE:
                broken = True
    while hands[leader] != 0:
        if not broken:
            broken = ((hands[0] | hands[1] | hands[2] | hands[3]) & deck_spades) != deck_spades
        leader = play_trick(table, Trick(0, leader, broken), rules)


@njit(cache=True, inline="always")
def lay_card(table: np.ndarray, position: np.ndarray, dealt: np.ndarray, card: int) -> Trick:
    """Set the ``TABLE`` to ``position`` with the other hands as ``dealt``,
    the seat having just played ``card`` to the trick in progress (a void it
    shows included); returns that trick."""
    t = table[0]
    p = position[0]
    for s in range(4):
        t.hands[s] = dealt[s]
        t.won[s] = p.won[s]
        t.bids[s] = p.bids[s]
        t.voids[s] = p.voids[s]
    for k in range(p.trick_n):
        t.trick[k] = p.trick[k]
    t.trick[p.trick_n] = card
    t.hands[p.seat] &= ~(np.int64(1) << card)
    led = bits.suit_of(p.trick[0])
    if p.trick_n > 0 and bits.suit_of(card) != led:
        t.voids[p.seat] |= 1 << led
    return Trick(p.trick_n + 1, p.leader, p.broken)
