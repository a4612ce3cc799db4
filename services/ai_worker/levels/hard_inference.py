"""Hard's inference: how well a sampled deal explains what the other seats did.

Each deal of the unseen cards is weighted by the other seats' bids (their
hand at the deal – sampled cards plus those already played – estimated by
:func:`.normal_bid.trick_estimate`, Gaussian with σ = ``BID_SIGMA`` tricks; a
nil bidder's hand should be nil-safe, :func:`.normal_bid.nil_risk`) and by
their plays so far (the round replayed from the sampled hands; every card
another seat played that normal would not have played from that hand
multiplies the weight by ``mismatch``).  Each factor is floored, so an
opponent who bids or plays differently never empties the sample.  After the
nil exchange the partner bid on its hand before it: with the cards it gave
this seat, without those it received.  A bid made blind is not evidence.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..bits import FIRST_SPADE, suit_of, trick_state
from ..records import Rules, Trick, new_table
from .normal import normal_card
from .normal_bid import nil_risk, trick_estimate

BID_SIGMA = 1.5  # how far (in tricks) a bid may stray from the estimate of its hand
WEIGHT_FLOOR = 0.2  # a deal that explains a bid badly still counts this much


@njit(cache=True)
def deal_weight(
    me: int, dealt: np.ndarray, played_by: np.ndarray, bids: np.ndarray, deck: int, gave: int, received: int, blind: int
) -> float:
    """How well a sampled deal explains the bids made by the other seats
    (``gave``/``received``: this seat's nil exchange with its partner)."""
    weight = 1.0
    partner = (me + 2) & 3
    for s in range(4):
        if s == me or bids[s] < 0 or (blind >> s) & 1:  # a blind bid says nothing of the hand
            continue
        original = dealt[s] | played_by[s]
        if s == partner:
            original = original & ~gave | received
        if bids[s] == 0:
            risk = nil_risk(original, deck)
            fit = 1.0 if risk <= 1.0 else math.exp(-(risk - 1.0))
        else:
            z = (trick_estimate(original, deck) - bids[s]) / BID_SIGMA
            fit = math.exp(-0.5 * z * z)
        weight *= WEIGHT_FLOOR + (1.0 - WEIGHT_FLOOR) * fit
    return weight


@njit(cache=True)
def play_fit(position: np.ndarray, dealt: np.ndarray, rules: Rules, near: np.ndarray, mismatch: float) -> float:
    """How well a sampled deal explains the round's plays so far: the round
    is replayed from the sampled hands, and every card another seat played
    that normal would not have played from that hand multiplies the weight by
    ``mismatch``.  A seat that ducked, did not cover or led a suit says
    something about its hand; a soft factor keeps opponents who play
    differently from emptying the sample."""
    p = position[0]
    me = p.seat
    table = new_table()
    t = table[0]
    hands, won, voids, trick = t.hands, t.won, t.voids, t.trick
    for s in range(4):
        hands[s] = dealt[s] | p.played_by[s]
        t.bids[s] = p.bids[s]
    broken = False
    leader = p.first_leader
    k = 0
    weight = 1.0
    unplayed = hands[0] | hands[1] | hands[2] | hands[3]
    led = -1
    for i in range(p.history_n):
        seat = (leader + k) & 3
        card = p.history[i]
        if seat != me:
            out = unplayed & ~hands[seat]
            if normal_card(seat, hands[seat], out, table, Trick(k, leader, broken), rules, near[seat]) != card:
                weight *= mismatch
        bit = np.int64(1) << card
        hands[seat] &= ~bit
        unplayed &= ~bit
        trick[k] = card
        if k == 0:
            led = suit_of(card)
        elif suit_of(card) != led:
            voids[seat] |= 1 << led
        k += 1
        if k == 4:
            _, _, winner = trick_state(table, Trick(4, leader, broken))
            won[winner] += 1
            for j in range(4):
                if trick[j] >= FIRST_SPADE:
                    broken = True
            leader = winner
            k = 0
    return weight


@njit(cache=True)
def in_play_weight(position: np.ndarray, dealt: np.ndarray, rules: Rules, near: np.ndarray, mismatch: float) -> float:
    """A sampled deal's weight while the round is played: its bids' factor (:func:`deal_weight`) times
    its plays' (:func:`play_fit`, once a card has been played and ``mismatch`` is below 1)."""
    p = position[0]
    weight = deal_weight(p.seat, dealt, p.played_by, p.bids, rules.deck, p.gave, p.received, p.blind)
    if mismatch < 1.0 and p.history_n > 0:
        weight *= play_fit(position, dealt, rules, near, mismatch)
    return weight
