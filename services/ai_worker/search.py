"""Seed 002's "hard" level: determinized search over whole rounds.

Hard "tracks the top cards still out and adapts its plan to both teams'
combined contracts".  It does so by Perfect Information Monte Carlo (PIMC),
the method behind strong computer players of hidden-card games:

1. **Inference.**  The unseen cards are dealt to the other seats many times,
   respecting revealed voids (:func:`kernel.sample_hands`); each deal is
   weighted by how well it explains what the other seats bid: a seat's hand
   at the deal (its sampled cards plus those it has played) is estimated with
   :func:`heuristics.trick_estimate` and compared with its bid (a Gaussian of
   1.5 tricks, floored so that a wild bidder cannot empty the sample); a nil
   bidder's hand is expected to be nil-safe (:func:`heuristics.nil_risk`).
2. **Rollouts.**  For each candidate move and each deal, the rest of the
   round is played out with every seat playing normal
   (:func:`heuristics.normal_card`, which covers and sets nils and ducks
   bags); bids not yet made come from :func:`heuristics.normal_bid` of the
   sampled hands.  The same deals serve every candidate (common random
   numbers).
3. **Objective.**  A rollout is worth the round's points for this seat's
   side minus the other side's (individual: minus the mean of the other
   seats), each bag charged its share of the bag penalty
   (``bag_penalty / bag_limit``), plus ``GAME_WEIGHT`` points when the round
   would end the game (500 / −200 thresholds) won, and minus it when lost.
   The move with the highest weighted mean value is chosen; ties go to the
   lowest card (by rank, then suit) or the lowest bid.

Bidding searches every legal bid, nil included, the same way from the start
of the round.  All of it runs in one compiled call per decision.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .heuristics import bags_near, nil_risk, normal_bid, normal_card, trick_estimate
from .kernel import MAX_BID, SPADE_MASK, add_to_trick, deal_unseen, lowest_index, new_rng, trick_state

GAME_WEIGHT = 200.0  # what ending the game this round is worth, in round points
BID_SIGMA = 1.5  # how far (in tricks) a bid may stray from the estimate of its hand
WEIGHT_FLOOR = 0.2  # a deal that explains a bid badly still counts this much


# ------------------------------------------------------------------ scoring


@njit(cache=True)
def side_points(
    side: int,
    bids: np.ndarray,
    won: np.ndarray,
    partnership: bool,
    nil_counts: bool,
    nil_value: int,
    set_negative: bool,
) -> tuple[int, int]:
    """``(points before any bag penalty, bags gained)`` of one side this round –
    the engine's ``side_round_points``."""
    contract = 0
    counted = 0
    points = 0
    n_seats = 2 if partnership else 1
    for i in range(n_seats):
        s = side + 2 * i
        if bids[s] == 0:
            points += nil_value if won[s] == 0 else -nil_value
            if nil_counts:
                counted += won[s]
        else:
            contract += bids[s]
            counted += won[s]
    bags = 0
    if counted >= contract:
        points += 10 * contract + (counted - contract)
        bags = counted - contract
    elif set_negative:
        points -= 10 * contract
    return points, bags


@njit(cache=True)
def round_value(
    me: int,
    bids: np.ndarray,
    won: np.ndarray,
    partnership: bool,
    nil_counts: bool,
    scoring: np.ndarray,
    bags_before: np.ndarray,
    scores_before: np.ndarray,
) -> float:
    """What a finished round is worth to ``me`` (see the module docstring).

    ``scoring`` = [nil_value, set_negative, bag_limit, bag_penalty, win_score,
    has_lose_score, lose_score]."""
    nil_value = scoring[0]
    set_negative = scoring[1] != 0
    bag_limit = scoring[2]
    bag_penalty = scoring[3]
    sides = 2 if partnership else 4
    my_side = me & 1 if partnership else me
    charge = bag_penalty / bag_limit if bag_penalty > 0 else 0.0
    values = np.empty(4, dtype=np.float64)
    finals = np.empty(4, dtype=np.int64)
    for side in range(sides):
        points, bags = side_points(side, bids, won, partnership, nil_counts, nil_value, set_negative)
        total = bags_before[side] + bags
        hits = total // bag_limit if bag_penalty > 0 else 0
        finals[side] = scores_before[side] + points - hits * bag_penalty
        values[side] = points - charge * bags
    mine = values[my_side]
    others = 0.0
    for side in range(sides):
        if side != my_side:
            others += values[side]
    value = mine - others / (sides - 1)
    # the game may end this round
    top = finals[0]
    ended = False
    for side in range(sides):
        top = max(top, finals[side])
        if finals[side] >= scoring[4] or (scoring[5] != 0 and finals[side] <= scoring[6]):
            ended = True
    if ended:
        leaders = 0
        for side in range(sides):
            if finals[side] == top:
                leaders += 1
        if leaders == 1:
            value += GAME_WEIGHT if finals[my_side] == top else -GAME_WEIGHT
    return value


# ----------------------------------------------------------------- rollouts


@njit(cache=True)
def rollout(
    hands: np.ndarray,
    won: np.ndarray,
    bids: np.ndarray,
    leader: int,
    trick: np.ndarray,
    trick_n: int,
    broken: bool,
    void_suits: np.ndarray,
    partnership: bool,
    must_break: bool,
    nil_counts: bool,
    bags_near: np.ndarray,
) -> int:
    """Play the round out from a position with every seat normal.

    ``hands``, ``won``, ``trick`` and ``void_suits`` are updated in place; a
    trick in progress is completed first.  Returns the winner of the first
    trick completed (the trick in progress, or the next one)."""
    first_winner = -1
    while True:
        unplayed = hands[0] | hands[1] | hands[2] | hands[3]
        if trick_n == 0 and unplayed == 0:
            return first_winner
        if trick_n == 0 and not broken:
            broken = (unplayed & SPADE_MASK) != SPADE_MASK
        led, best, winner = trick_state(trick, trick_n, leader)
        for k in range(trick_n, 4):
            seat = (leader + k) & 3
            out = unplayed & ~hands[seat]
            card = normal_card(
                seat, hands[seat], out, trick, k, leader, bids, won, void_suits, broken, partnership,
                must_break, nil_counts, bags_near[seat],
            )  # fmt: skip
            hands[seat] &= ~(np.int64(1) << card)
            unplayed &= ~(np.int64(1) << card)
            trick[k] = card
            if k > 0 and card // 13 != led:
                void_suits[seat] |= 1 << led
            led, best, winner = add_to_trick(card, k, seat, led, best, winner)
        won[winner] += 1
        if first_winner < 0:
            first_winner = winner
        leader = winner
        trick_n = 0


# ---------------------------------------------------------------- inference


@njit(cache=True)
def deal_weight(me: int, dealt: np.ndarray, played_by: np.ndarray, bids: np.ndarray) -> float:
    """How well a sampled deal explains the bids made by the other seats."""
    weight = 1.0
    for s in range(4):
        if s == me or bids[s] < 0:
            continue
        original = dealt[s] | played_by[s]
        if bids[s] == 0:
            risk = nil_risk(original)
            fit = 1.0 if risk <= 1.0 else math.exp(-(risk - 1.0))
        else:
            z = (trick_estimate(original) - bids[s]) / BID_SIGMA
            fit = math.exp(-0.5 * z * z)
        weight *= WEIGHT_FLOOR + (1.0 - WEIGHT_FLOOR) * fit
    return weight


@njit(cache=True)
def play_fit(
    me: int,
    dealt: np.ndarray,
    played_by: np.ndarray,
    history: np.ndarray,
    history_n: int,
    first_leader: int,
    bids: np.ndarray,
    partnership: bool,
    must_break: bool,
    nil_counts: bool,
    near: np.ndarray,
    mismatch: float,
) -> float:
    """How well a sampled deal explains the round's plays so far: the round
    is replayed from the sampled hands, and every card another seat played
    that normal would not have played from that hand multiplies the weight
    by ``mismatch``.  A seat that ducked, did not cover or led a suit says
    something about its hand; a soft factor keeps opponents who play
    differently from emptying the sample."""
    hands = np.empty(4, dtype=np.int64)
    for s in range(4):
        hands[s] = dealt[s] | played_by[s]
    won = np.zeros(4, dtype=np.int64)
    voids = np.zeros(4, dtype=np.int64)
    trick = np.zeros(4, dtype=np.int64)
    broken = False
    leader = first_leader
    k = 0
    weight = 1.0
    unplayed = hands[0] | hands[1] | hands[2] | hands[3]
    led = -1
    for i in range(history_n):
        seat = (leader + k) & 3
        card = history[i]
        if seat != me:
            out = unplayed & ~hands[seat]
            choice = normal_card(
                seat, hands[seat], out, trick, k, leader, bids, won, voids, broken, partnership, must_break,
                nil_counts, near[seat],
            )  # fmt: skip
            if choice != card:
                weight *= mismatch
        bit = np.int64(1) << card
        hands[seat] &= ~bit
        unplayed &= ~bit
        trick[k] = card
        if k == 0:
            led = card // 13
        elif card // 13 != led:
            voids[seat] |= 1 << led
        k += 1
        if k == 4:
            _, _, winner = trick_state(trick, 4, leader)
            won[winner] += 1
            for j in range(4):
                if trick[j] >= 39:
                    broken = True
            leader = winner
            k = 0
    return weight


@njit(cache=True)
def _bags_near(bags_before: np.ndarray, partnership: bool, scoring: np.ndarray) -> np.ndarray:
    """Per seat: its side is within reach of the bag penalty (:func:`heuristics.bags_near`)."""
    near = np.zeros(4, dtype=np.bool_)
    for s in range(4):
        near[s] = bags_near(bags_before[s & 1 if partnership else s], scoring[2], scoring[3])
    return near


# ---------------------------------------------------------------- decisions


@njit(cache=True)
def play_values(
    me: int,
    my_hand: int,
    candidates: int,
    unseen: np.ndarray,
    sizes: np.ndarray,
    void_suits: np.ndarray,
    played_by: np.ndarray,
    bids: np.ndarray,
    leader: int,
    trick: np.ndarray,
    trick_n: int,
    won: np.ndarray,
    broken: bool,
    partnership: bool,
    must_break: bool,
    nil_counts: bool,
    scoring: np.ndarray,
    bags_before: np.ndarray,
    scores_before: np.ndarray,
    history: np.ndarray,
    history_n: int,
    first_leader: int,
    mismatch: float,
    samples: int,
    seed: np.uint64,
) -> tuple[np.ndarray, np.ndarray]:
    """For each card in ``candidates``: its weighted mean rollout value, and
    the weighted share of deals in which this seat's side takes the trick.
    Returns two arrays of 52 indexed by card."""
    rng = new_rng(seed)
    buf = np.empty(52, dtype=np.int64)
    dealt = np.empty(4, dtype=np.int64)
    hands = np.empty(4, dtype=np.int64)
    won_copy = np.empty(4, dtype=np.int64)
    cards = np.empty(4, dtype=np.int64)
    voids = np.empty(4, dtype=np.int64)
    values = np.zeros(52, dtype=np.float64)
    takes = np.zeros(52, dtype=np.float64)
    near = _bags_near(bags_before, partnership, scoring)
    total = 0.0
    partner = (me + 2) & 3
    for _ in range(samples):
        deal_unseen(me, my_hand, unseen, sizes, void_suits, rng, buf, dealt)
        weight = deal_weight(me, dealt, played_by, bids)
        if mismatch < 1.0 and history_n > 0:
            weight *= play_fit(
                me, dealt, played_by, history, history_n, first_leader, bids, partnership, must_break, nil_counts,
                near, mismatch,
            )  # fmt: skip
        total += weight
        rest = candidates
        while rest:
            card = lowest_index(rest)
            rest &= rest - 1
            for s in range(4):
                hands[s] = dealt[s]
                won_copy[s] = won[s]
                voids[s] = void_suits[s]
            for k in range(trick_n):
                cards[k] = trick[k]
            cards[trick_n] = card
            hands[me] &= ~(np.int64(1) << card)
            if trick_n > 0 and card // 13 != cards[0] // 13:
                voids[me] |= 1 << (cards[0] // 13)
            winner = rollout(
                hands, won_copy, bids, leader, cards, trick_n + 1, broken, voids, partnership, must_break,
                nil_counts, near,
            )  # fmt: skip
            values[card] += weight * round_value(
                me, bids, won_copy, partnership, nil_counts, scoring, bags_before, scores_before
            )
            if winner == me or (partnership and winner == partner):
                takes[card] += weight
    if total > 0:
        values /= total
        takes /= total
    return values, takes


@njit(cache=True)
def bid_values(
    me: int,
    my_hand: int,
    candidates: np.ndarray,
    unseen: np.ndarray,
    sizes: np.ndarray,
    known_bids: np.ndarray,
    leader: int,
    partnership: bool,
    must_break: bool,
    nil_counts: bool,
    nil_allowed: bool,
    scoring: np.ndarray,
    bags_before: np.ndarray,
    scores_before: np.ndarray,
    deals: int,
    seed: np.uint64,
) -> tuple[np.ndarray, np.ndarray]:
    """For each bid in ``candidates`` (0..13): the weighted mean value of the
    round played out from the first lead, and the weighted share of deals in
    which the bid is made (the side's contract; a nil: no trick taken).
    Seats yet to bid (``known_bids[s] < 0``) bid normal on their sampled hand.
    Returns two arrays of 14 indexed by bid."""
    rng = new_rng(seed)
    buf = np.empty(52, dtype=np.int64)
    dealt = np.empty(4, dtype=np.int64)
    hands = np.empty(4, dtype=np.int64)
    won = np.zeros(4, dtype=np.int64)
    bids = np.empty(4, dtype=np.int64)
    trick = np.zeros(4, dtype=np.int64)
    voids = np.zeros(4, dtype=np.int64)
    no_voids = np.zeros(4, dtype=np.int64)
    nothing_played = np.zeros(4, dtype=np.int64)
    values = np.zeros(MAX_BID + 1, dtype=np.float64)
    makes = np.zeros(MAX_BID + 1, dtype=np.float64)
    near = _bags_near(bags_before, partnership, scoring)
    partner = (me + 2) & 3
    total = 0.0
    for _ in range(deals):
        deal_unseen(me, my_hand, unseen, sizes, no_voids, rng, buf, dealt)
        weight = deal_weight(me, dealt, nothing_played, known_bids)
        total += weight
        for b in range(MAX_BID + 1):
            if not candidates[b]:
                continue
            for s in range(4):
                bids[s] = known_bids[s]
            bids[me] = b
            # the others' bids in turn order from the first bidder
            for i in range(4):
                s = (leader + i) & 3
                if bids[s] < 0:
                    side = s & 1 if partnership else s
                    bids[s] = normal_bid(
                        dealt[s], bids[(s + 2) & 3] if partnership else -1, partnership, nil_allowed,
                        bags_before[side], scoring[2], scoring[3],
                    )  # fmt: skip
            for s in range(4):
                hands[s] = dealt[s]
                won[s] = 0
                voids[s] = 0
            rollout(hands, won, bids, leader, trick, 0, False, voids, partnership, must_break, nil_counts, near)
            values[b] += weight * round_value(
                me, bids, won, partnership, nil_counts, scoring, bags_before, scores_before
            )
            if b == 0:
                made = won[me] == 0
            elif partnership:
                counted = won[me] + (won[partner] if bids[partner] != 0 or nil_counts else 0)
                made = counted >= b + (bids[partner] if bids[partner] > 0 else 0)
            else:
                made = won[me] >= b
            if made:
                makes[b] += weight
    if total > 0:
        values /= total
        makes /= total
    return values, makes
