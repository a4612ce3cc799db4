"""Exact ("double-dummy") search of the rest of a round, for one sampled deal.

With every hand known, the round's remaining tricks are a two-sided game:
partnership sides take turns by seat, one side maximising
:func:`.hard_scoring.round_value` for ``me``, the other minimising it (it is
zero-sum between the sides: each side's round points minus the other's, and
the game's end weighed the same for both).  Alpha-beta over the cards, with
two exact reductions:

* **Equivalent cards.**  Two cards of one suit in one hand with no card
  between them left in another hand or lying in the trick win exactly the
  same tricks; only the lowest is searched.
* **Settled outcomes.**  The round's value depends only on who takes how many
  tricks; nothing else is tracked.
* **Transpositions.**  Positions at the start of a trick (the four hands, the
  leader, whether spades are broken, the tricks each seat has taken) are
  remembered in a memo (:func:`new_memo`) with the bounds their search
  proved, so a position reached by another order of tricks, from another
  candidate card or from another sampled deal of the same decision is not
  searched twice.  A memo belongs to one objective: one seat, its bids,
  bags, scores and rules.

Only small endgames are searched (the caller bounds the tricks left): the
tree grows with the product of the hands' legal cards.  Individual scoring is
not zero-sum between two sides and is not searched here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import SPADE_MASK, add_to_trick, beating_mask, highest_index, legal_mask, lowest_index, suit_mask, suit_of
from ..records import House, Rules
from .hard_scoring import round_value

INFINITY = 1.0e18
MEMO_BITS = 16  # expert's memo: 2**MEMO_BITS positions (4.5 MiB), the most a memo holds; a later position takes an earlier one's slot
_MIX = (
    np.int64(-7046029254386353131),
    np.int64(-4658895280553007687),
    np.int64(-7723592293110705685),
    np.int64(5729426683935011617),
    np.int64(-4417276706812531889),
)


def new_memo(bits: int = MEMO_BITS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An empty memo of ``2**bits`` slots (at most ``2**MEMO_BITS``) for :func:`search`: per slot, the
    position's key (four hands and a packed word of leader, broken and tricks taken; word ``-1``: empty)
    and its proven ``[lower, upper]`` bounds; and a count of the positions searched with it (a
    caller's measure of work, deterministic where time is not).  A smaller memo gives the same values,
    more slowly (``benchmarks.endgame`` measures the gain)."""
    if not 0 <= bits <= MEMO_BITS:
        raise ValueError(f"a memo has 2**0 to 2**{MEMO_BITS} slots, not 2**{bits}")
    keys = np.zeros((1 << bits, 5), dtype=np.int64)
    keys[:, 4] = -1
    return keys, np.zeros((1 << bits, 2), dtype=np.float64), np.zeros(1, dtype=np.int64)


@njit(cache=True, inline="always")
def _memo_holds(memo_keys: np.ndarray, slot: int, word: int, hands: np.ndarray) -> bool:
    """The memo's ``slot`` holds the position of ``hands`` and ``word`` (leader, broken, tricks taken)."""
    return (
        memo_keys[slot, 4] == word
        and memo_keys[slot, 0] == hands[0]
        and memo_keys[slot, 1] == hands[1]
        and memo_keys[slot, 2] == hands[2]
        and memo_keys[slot, 3] == hands[3]
    )


@njit(cache=True, inline="always")
def _representatives(legal: int, blockers: int) -> int:
    """``legal`` without the cards equivalent to a lower one kept: a card is dropped when the next
    lower card of its suit among ``legal | blockers`` is in ``legal`` itself (nothing that could
    tell the two apart lies between them)."""
    keep = 0
    rest = legal
    while rest:
        card = lowest_index(rest)
        rest &= rest - 1
        below = (legal | blockers) & suit_mask(suit_of(card)) & ((np.int64(1) << card) - 1)
        if below == 0:
            keep |= np.int64(1) << card
            continue
        nearest = highest_index(below)
        if not (legal >> nearest) & 1:
            keep |= np.int64(1) << card
    return keep


@njit(cache=True)
def search(
    hands: np.ndarray,
    won: np.ndarray,
    state: np.ndarray,
    rules: Rules,
    house: House,
    scoring: np.ndarray,
    alpha: float,
    beta: float,
    memo_keys: np.ndarray,
    memo_bounds: np.ndarray,
    memo_nodes: np.ndarray,
) -> float:
    """The exact value for ``me`` of the round from this point, within ``[alpha, beta]`` (a value at
    or below ``alpha`` is an upper bound of it, one at or above ``beta`` a lower bound).

    ``hands``/``won``/``state``: updated and restored in place; ``hands``, ``won`` per seat,
    ``state``: ``[me, leader, n, led, best, winner, broken, trick card 0..3]`` (``n`` cards of the
    trick down).  ``scoring``:
    ``[bids 0..3, bags 0..3, scores 0..3, blind]`` as :func:`.hard_scoring.round_value` reads them.
    ``memo_*``: a memo of :func:`new_memo` for this objective (``memo_nodes[0]`` counts this call).
    """
    memo_nodes[0] += 1
    me = state[0]
    leader = state[1]
    n = state[2]
    if n == 0 and (hands[leader] & (hands[leader] - 1)) == 0:
        # the last trick (or none left): every hand holds one card, nothing to choose
        if hands[leader] == 0:
            return round_value(me, scoring[0:4], won, rules, house, scoring[4:8], scoring[8:12], scoring[12])
        led, best, winner = -1, -1, -1
        for k in range(4):
            s = (leader + k) & 3
            led, best, winner = add_to_trick(lowest_index(hands[s]), k, s, led, best, winner)
        won[winner] += 1
        value = round_value(me, scoring[0:4], won, rules, house, scoring[4:8], scoring[8:12], scoring[12])
        won[winner] -= 1
        return value
    slot = -1
    word = np.int64(0)
    if n == 0:
        word = leader | (state[6] << 2) | (won[0] << 3) | (won[1] << 7) | (won[2] << 11) | (won[3] << 15)
        mixed = hands[0] * _MIX[0] ^ hands[1] * _MIX[1] ^ hands[2] * _MIX[2] ^ hands[3] * _MIX[3] ^ word * _MIX[4]
        slot = (mixed >> (64 - MEMO_BITS)) & (memo_keys.shape[0] - 1)  # the hash's top bits
        if _memo_holds(memo_keys, slot, word, hands):
            lower = memo_bounds[slot, 0]
            upper = memo_bounds[slot, 1]
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            alpha = max(alpha, lower)
            beta = min(beta, upper)
    alpha_in = alpha
    beta_in = beta
    seat = (leader + n) & 3
    led = state[3]
    best = state[4]
    winner = state[5]
    broken = state[6] != 0
    hand = hands[seat]
    legal = legal_mask(hand, led if n > 0 else -1, broken, rules.must_break)
    trick_cards = 0
    for k in range(n):
        trick_cards |= np.int64(1) << state[7 + k]
    first_three = (state[7], state[8], state[9])
    others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hand
    moves = _representatives(legal, others | trick_cards)
    maximising = (seat & 1) == (me & 1)
    value = -INFINITY if maximising else INFINITY
    # try the cards that take the trick first (the cheapest of them), then the rest from the lowest
    beats = moves & beating_mask(best) if n > 0 else 0
    cut = False
    for phase in range(2):
        if cut:
            break
        rest = beats if phase == 0 else moves & ~beats
        while rest:
            card = lowest_index(rest)
            rest &= rest - 1
            bit = np.int64(1) << card
            hands[seat] &= ~bit
            new_led, new_best, new_winner = add_to_trick(card, n, seat, led, best, winner)
            if n == 3:
                won[new_winner] += 1
                spade = 1 if broken or (trick_cards | bit) & SPADE_MASK != 0 else 0
                state[1], state[2], state[3], state[4], state[5], state[6] = new_winner, 0, -1, -1, -1, spade
                v = search(hands, won, state, rules, house, scoring, alpha, beta, memo_keys, memo_bounds, memo_nodes)
                won[new_winner] -= 1
                state[7], state[8], state[9] = first_three  # the later tricks wrote theirs there
            else:
                state[7 + n] = card
                state[2], state[3], state[4], state[5] = n + 1, new_led, new_best, new_winner
                v = search(hands, won, state, rules, house, scoring, alpha, beta, memo_keys, memo_bounds, memo_nodes)
            state[1], state[2], state[3], state[4], state[5], state[6] = leader, n, led, best, winner, broken
            hands[seat] |= bit
            if maximising:
                if v > value:
                    value = v
                if value > alpha:
                    alpha = value
            else:
                if v < value:
                    value = v
                if value < beta:
                    beta = value
            if alpha >= beta:
                cut = True
                break
    if slot >= 0:
        same = _memo_holds(memo_keys, slot, word, hands)
        lower = memo_bounds[slot, 0] if same else -INFINITY
        upper = memo_bounds[slot, 1] if same else INFINITY
        if value <= alpha_in:
            upper = min(upper, value)
        elif value >= beta_in:
            lower = max(lower, value)
        else:
            lower = value
            upper = value
        memo_keys[slot, 0:4] = hands
        memo_keys[slot, 4] = word
        memo_bounds[slot, 0] = lower
        memo_bounds[slot, 1] = upper
    return value


@njit(cache=True)
def card_values(
    hands: np.ndarray,
    won: np.ndarray,
    state: np.ndarray,
    rules: Rules,
    house: House,
    scoring: np.ndarray,
    candidates: int,
    out: np.ndarray,
    memo_keys: np.ndarray,
    memo_bounds: np.ndarray,
    memo_nodes: np.ndarray,
) -> None:
    """The exact value of each card in ``candidates`` (the seat to play's legal cards) for the seat
    to play, written to ``out`` by card index; equivalent cards share their value.  ``memo_*``: a
    memo of :func:`new_memo` for this objective (see :func:`search`)."""
    leader = state[1]
    n = state[2]
    seat = (leader + n) & 3
    hand = hands[seat]
    trick_cards = 0
    for k in range(n):
        trick_cards |= np.int64(1) << state[7 + k]
    first_three = (state[7], state[8], state[9])
    others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hand
    led, best, winner, broken = state[3], state[4], state[5], state[6] != 0
    rest = candidates
    last = -1.0
    last_card = -1
    while rest:
        card = lowest_index(rest)
        rest &= rest - 1
        equivalent = False
        if last_card >= 0 and suit_of(last_card) == suit_of(card):
            between = (others | trick_cards) & ((np.int64(1) << card) - 1) & ~((np.int64(2) << last_card) - 1)
            equivalent = between == 0
        if equivalent:
            out[card] = last
            last_card = card
            continue
        bit = np.int64(1) << card
        hands[seat] &= ~bit
        new_led, new_best, new_winner = add_to_trick(card, n, seat, led, best, winner)
        if n == 3:
            won[new_winner] += 1
            spade = 1 if broken or (trick_cards | bit) & SPADE_MASK != 0 else 0
            state[1], state[2], state[3], state[4], state[5], state[6] = new_winner, 0, -1, -1, -1, spade
            v = search(
                hands, won, state, rules, house, scoring, -INFINITY, INFINITY, memo_keys, memo_bounds, memo_nodes
            )
            won[new_winner] -= 1
            state[7], state[8], state[9] = first_three  # the later tricks wrote theirs there
        else:
            state[7 + n] = card
            state[2], state[3], state[4], state[5] = n + 1, new_led, new_best, new_winner
            v = search(
                hands, won, state, rules, house, scoring, -INFINITY, INFINITY, memo_keys, memo_bounds, memo_nodes
            )
        state[1], state[2], state[3], state[4], state[5], state[6] = leader, n, led, best, winner, broken
        hands[seat] |= bit
        out[card] = v
        last = v
        last_card = card
