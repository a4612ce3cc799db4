"""Seed 002's "normal" level, its hand reading: trick estimates, nil risk and the bid.

Seed 002: normal "estimates tricks from high cards, suit length and spades".
:func:`trick_estimate` and :func:`nil_risk` also weigh the deals of hard's
search (:mod:`.hard_inference`), and :func:`normal_bid` bids for the seats
yet to bid in hard's rollouts, so a better normal is a better hard.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import MAX_BID, SPADE_MASK, SUIT_FIELD, popcount, spade_ranks
from ..records import House, Rules, house_of, rules_of

ACE, KING, QUEEN, JACK = 12, 11, 10, 9
BAGS_NEAR = 3  # bags this close to the limit make a side avoid overtricks
SUICIDE_NIL_ESTIMATE = 3.0  # suicide: a first partner with fewer tricks than this takes the side's nil...
SUICIDE_NIL_RISK = 1.6  # ...when its hand is at least this nil-safe (else it bids and leaves the nil to its partner)


@njit(cache=True, inline="always")
def bags_near(bags: int, rules: Rules) -> bool:
    """A side with ``bags`` is within ``BAGS_NEAR`` of the penalty (never, when the penalty is off)."""
    return rules.bag_penalty > 0 and bags >= rules.bag_limit - BAGS_NEAR


@njit(cache=True)
def side_bags_near(bags_before: np.ndarray, rules: Rules) -> np.ndarray:
    """Per seat: its side is within reach of the bag penalty (:func:`bags_near`)."""
    near = np.zeros(4, dtype=np.bool_)
    for s in range(4):
        near[s] = bags_near(bags_before[s & 1 if rules.partnership else s], rules)
    return near


@njit(cache=True)
def trick_estimate(hand: int, deck: int) -> float:
    """Expected tricks of a 13-card hand from high cards, suit length and spades.

    Side suits: an ace 1 (0.8 in a suit of 6+, likely ruffed); a king 0.9
    with the ace, 0.65 guarded, 0.15 alone; a queen 0.5 behind the ace or
    king with two guards, 0.25 with two guards alone.  Spades: ace 1, king
    0.95 guarded (0.4 alone), queen 0.8 with two guards (0.3 with one), jack
    0.5 with three; every spade past the fourth 0.9; spare low spades ruff
    short side suits (void 0.9, singleton 0.6, doubleton 0.25).  The deck's
    top spades count as its ace, king, queen and jack (jokers, a high 2:
    :func:`.bits.spade_ranks`).
    """
    estimate = 0.0
    shortness = 0.0
    for suit in range(3):
        field = (hand >> (13 * suit)) & SUIT_FIELD
        n = popcount(field)
        ace = (field >> ACE) & 1
        king = (field >> KING) & 1
        queen = (field >> QUEEN) & 1
        if ace:
            estimate += 0.8 if n >= 6 else 1.0
        if king:
            if ace:
                estimate += 0.9 if n <= 5 else 0.6
            elif n >= 2:
                estimate += 0.65 if n <= 5 else 0.4
            else:
                estimate += 0.15
        if queen and n >= 3:
            estimate += 0.5 if (ace or king) else 0.25
        if n == 0:
            shortness += 0.9
        elif n == 1:
            shortness += 0.6 if not ace else 0.0
        elif n == 2:
            shortness += 0.25
    spades = spade_ranks(hand, deck)
    n = popcount(hand & SPADE_MASK)
    honours = 0.0
    used = 0
    if (spades >> ACE) & 1:
        honours += 1.0
        used += 1
    if (spades >> KING) & 1:
        honours += 0.95 if n >= 2 else 0.4
        used += 1
    if (spades >> QUEEN) & 1:
        honours += 0.8 if n >= 3 else (0.3 if n == 2 else 0.1)
        used += 1
    if (spades >> JACK) & 1 and n >= 4:
        honours += 0.5
        used += 1
    length = 0.9 * max(0, n - 4)
    spare = max(0, n - used - max(0, n - 4))  # low spades not already counted
    estimate += honours + length + min(shortness, float(spare))
    return estimate


@njit(cache=True)
def nil_risk(hand: int, deck: int) -> float:
    """How likely a nil with this hand fails, as a score (0 = safe; about 1
    and more = do not bid nil): high spades and many spades, side aces,
    unguarded kings and queens, few low cards to duck with (the deck's top
    spades are its ace, king, queen, jack)."""
    risk = 0.0
    spades = spade_ranks(hand, deck)
    n = popcount(hand & SPADE_MASK)
    if (spades >> ACE) & 1 or (spades >> KING) & 1:
        risk += 2.0
    if (spades >> QUEEN) & 1:
        risk += 0.6
    if (spades >> JACK) & 1:
        risk += 0.3
    if n >= 4:
        risk += 0.5 * (n - 3)
    for suit in range(3):
        field = (hand >> (13 * suit)) & SUIT_FIELD
        length = popcount(field)
        low = popcount(field & 0x1F)  # 2..6
        if (field >> ACE) & 1:
            risk += 1.2 if length <= 3 else 0.7
        if (field >> KING) & 1:
            risk += 0.6 if length <= 2 else (0.3 if length <= 3 else 0.1)
        if (field >> QUEEN) & 1 and length <= 2:
            risk += 0.25
        if length >= 3 and low == 0:
            risk += 0.2
    return risk


@njit(cache=True)
def normal_bid(hand: int, partner_bid: int, bags: int, rules: Rules, house: House) -> int:
    """Normal's bid for a 13-card hand (``partner_bid`` -1 when not yet bid,
    ``bags`` the side's bags before the round).

    The estimate rounded to the nearest trick (at least 1); a side within
    ``BAGS_NEAR`` bags of the penalty rounds up instead, since a bag then
    costs more than a missed trick's risk; with a nil partner it adds one
    trick of cover.  Nil when the hand is nil-safe (``nil_risk`` below 0.8,
    estimate under 2) and the partner has not bid nil itself.

    Suicide (one partner of each side bids nil): after a partner's nil, at
    least the suicide minimum; after a partner's bid, nil; as the side's first
    bidder, nil with a weak, fairly nil-safe hand (``SUICIDE_NIL_ESTIMATE``,
    ``SUICIDE_NIL_RISK``), else a bid of at least the minimum.
    """
    estimate = trick_estimate(hand, rules.deck)
    if house.suicide:
        if partner_bid > 0:
            return 0
        if partner_bid < 0 and estimate < SUICIDE_NIL_ESTIMATE and nil_risk(hand, rules.deck) < SUICIDE_NIL_RISK:
            return 0
    else:
        partner_covers = not rules.partnership or partner_bid < 0 or partner_bid >= 3
        if rules.nil_allowed and partner_covers and estimate < 2.0 and nil_risk(hand, rules.deck) < 0.8:
            return 0
    bid = int(estimate + 0.99) if bags_near(bags, rules) else int(estimate + 0.5)
    if rules.partnership and partner_bid == 0:
        bid += 1
    if house.suicide:
        bid = max(bid, house.suicide_minimum)
    return max(1, min(MAX_BID, bid))


@njit(cache=True)
def position_bid(position: np.ndarray) -> int:
    """Normal's bid for the seat of ``position`` (before the legal bids are applied)."""
    p = position[0]
    rules = rules_of(p)
    partner_bid = p.bids[(p.seat + 2) % 4] if rules.partnership else -1
    return normal_bid(p.hand, partner_bid, p.bags[p.seat % 2 if rules.partnership else p.seat], rules, house_of(p))
