"""Seed 002's "hard" level: determinized search over whole rounds.

Hard "tracks the top cards still out and adapts its plan to both teams'
combined contracts".  It does so by Perfect Information Monte Carlo (PIMC),
the method behind strong computer players of hidden-card games:

1. **Inference.**  The unseen cards are dealt to the other seats many times,
   respecting revealed voids (:func:`services.ai_worker.dealing.sample_hands`);
   each deal is weighted by how well it explains the other seats' bids and
   plays (:mod:`.hard_inference`).
2. **Rollouts.**  For each candidate move and each deal, the rest of the
   round is played out with every seat playing normal
   (:func:`.normal.normal_card`, which covers and sets nils and ducks bags);
   bids not yet made come from :func:`.normal_bid.normal_bid` of the sampled
   hands.  The same deals serve every candidate (common random numbers).
3. **Objective.**  A rollout is worth :func:`.hard_scoring.round_value`: the
   round's points for this seat's side against the other side's, bags
   charged, and the end of the game weighed.  The move with the highest
   weighted mean value is chosen; ties go to the lowest card (by rank, then
   suit) or the lowest bid.

Bidding searches every legal bid, nil included, the same way from the start
of the round.  All of it runs in one compiled call per decision.

House rules (``docs/rules.md``): the rollouts play the game's deck (jokers,
a high 2 of spades) and score its rules (blind bids, 10 for 200, the mercy
rule ending the game).  A seat that may bid blind has not seen its hand: its
own hand is dealt in every sample too, and the candidates are its blind
bids (blind nil, blind n) and looking, valued as the round played with
normal's bid on the sampled hand.  Simulated seats bid normal (under
suicide, its suicide bids), and after the bids a side with a nil bidder
exchanges :func:`.passing.nil_pass` cards.  In the exchange hard weighs
every set of cards among normal's first ``PASS_SHORTLIST`` choices by
playing the round out after it.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np
from numba import njit

from services.computers import deck_of
from services.engine import card_code, cards_in, codes, lowest_by_rank, mask_of

from ..bits import INDEX_LIMIT, MAX_BID, SPADE_MASK, add_to_trick, lowest_index, suit_of, trick_state
from ..dealing import NO_WORLDS, deal_world, new_dealer, rng_seed
from ..passing import exchange, nil_pass
from ..playout import lay_card
from ..position import position_of
from ..records import House, Rules, Trick, house_of, new_table, rules_of
from .hard_inference import deal_weight, in_play_weight
from .hard_scoring import round_value
from .normal import attacking_card, normal_card
from .normal_bid import normal_bid, side_bags_near

BID_DEALS = 300  # deals per candidate bid
PLAY_SAMPLES = 300  # deals per candidate card
PLAY_MISMATCH = 0.7  # a deal's weight per play another seat made that normal would not have (1: off)


@njit(cache=True)
def rollout(
    table: np.ndarray, trick: Trick, rules: Rules, near: np.ndarray, sharp: bool, me: int, rivals_nil: bool = True
) -> int:
    """Play the round out from a position with every seat normal (``near``:
    per seat, its side is near the bag penalty; ``sharp``: every seat plays
    :func:`.normal.attacking_card` instead, attacking any rival's nil (in the
    individual game only with ``rivals_nil``), and ``me``, the searching seat,
    with ``greedy`` on: expert's rollouts).

    The ``TABLE`` is updated in place; a trick in progress is completed
    first.  Returns the winner of the first trick completed (the trick in
    progress, or the next one)."""
    t = table[0]
    hands, won, voids, cards = t.hands, t.won, t.voids, t.trick
    trick_n, leader, broken = trick.n, trick.leader, trick.broken
    deck_spades = rules.deck & SPADE_MASK
    first_winner = -1
    while True:
        unplayed = hands[0] | hands[1] | hands[2] | hands[3]
        if trick_n == 0 and unplayed == 0:
            return first_winner
        if trick_n == 0 and not broken:
            broken = (unplayed & deck_spades) != deck_spades
        led, best, winner = trick_state(table, Trick(trick_n, leader, broken))
        for k in range(trick_n, 4):
            seat = (leader + k) & 3
            out = unplayed & ~hands[seat]
            now = Trick(k, leader, broken)
            if sharp:
                card = attacking_card(
                    seat, hands[seat], out, table, now, rules, near[seat], False, seat == me, rivals_nil
                )
            else:
                card = normal_card(seat, hands[seat], out, table, now, rules, near[seat])
            hands[seat] &= ~(np.int64(1) << card)
            unplayed &= ~(np.int64(1) << card)
            cards[k] = card
            if k > 0 and suit_of(card) != led:
                voids[seat] |= 1 << led
            led, best, winner = add_to_trick(card, k, seat, led, best, winner)
        won[winner] += 1
        if first_winner < 0:
            first_winner = winner
        leader = winner
        trick_n = 0


@njit(cache=True)
def rollout_rules(p: np.record) -> tuple[Rules, House, np.ndarray]:
    """What the rollouts and their scoring read of a ``POSITION`` record besides the table:
    the rules, the house rules, and per seat whether its side is near the bag penalty."""
    rules = rules_of(p)
    return rules, house_of(p), side_bags_near(p.bags, rules)


@njit(cache=True)
def play_values(
    position: np.ndarray,
    candidates: int,
    mismatch: float,
    samples: int,
    seed: np.uint64,
    sharp: bool,
    worlds: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """For each card in ``candidates`` (a mask): its weighted mean rollout
    value, and the weighted share of deals in which this seat's side takes
    the trick (deals: :func:`.dealing.deal_world`'s).  Returns two arrays of
    ``INDEX_LIMIT`` indexed by card."""
    p = position[0]
    me = p.seat
    rules, house, near = rollout_rules(p)
    rng, buf, dealt = new_dealer(seed)
    table = new_table()
    values = np.zeros(INDEX_LIMIT, dtype=np.float64)
    takes = np.zeros(INDEX_LIMIT, dtype=np.float64)
    total = 0.0
    partner = (me + 2) & 3
    for i in range(samples):
        deal_world(position, rng, buf, dealt, worlds, i)
        weight = in_play_weight(position, dealt, rules, near, mismatch)
        total += weight
        rest = candidates
        while rest:
            card = lowest_index(rest)
            rest &= rest - 1
            winner = rollout(table, lay_card(table, position, dealt, card), rules, near, sharp, me)
            values[card] += weight * round_value(
                me, table[0].bids, table[0].won, rules, house, p.bags, p.scores, p.blind
            )
            if winner == me or (rules.partnership and winner == partner):
                takes[card] += weight
    if total > 0:
        values /= total
        takes /= total
    return values, takes


LOOK = 2 * (MAX_BID + 1)  # bid_values' entry for looking at the hand (a seat that may bid blind)


@njit(cache=True)
def bid_values(
    position: np.ndarray, candidates: np.ndarray, deals: int, seed: np.uint64, sharp: bool, worlds: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For each candidate (``candidates``: ``LOOK + 1`` flags, bid b at b, blind bid b at
    ``MAX_BID + 1 + b``, looking at ``LOOK``): the weighted mean value of the round played out
    from the first lead, and the weighted share of deals in which the bid is made (the side's
    contract; a nil: no trick taken).  Seats yet to bid bid normal on their sampled hand (no voids
    are known while bidding), so does this seat after looking; then the nil exchange, if any.
    In the individual game the rollouts' rivals leave nils alone, as the levels there do: modelled
    attacking them, expert forwent nils that pro's table lets it make (measured, docs/ai.md).
    Returns two arrays indexed as ``candidates``."""
    p = position[0]
    me = p.seat
    rules, house, near = rollout_rules(p)
    rng, buf, dealt = new_dealer(seed)
    table = new_table()
    hands, won, bids, voids = table[0].hands, table[0].won, table[0].bids, table[0].voids
    nothing_played = np.zeros(4, dtype=np.int64)
    values = np.zeros(LOOK + 1, dtype=np.float64)
    makes = np.zeros(LOOK + 1, dtype=np.float64)
    partner = (me + 2) & 3
    total = 0.0
    for i in range(deals):
        deal_world(position, rng, buf, dealt, worlds, i)
        weight = deal_weight(me, dealt, nothing_played, p.bids, rules.deck, 0, 0, p.blind)
        total += weight
        for c in range(LOOK + 1):
            if not candidates[c]:
                continue
            blind = p.blind
            for s in range(4):
                bids[s] = p.bids[s]
            if c <= MAX_BID:
                bids[me] = c
            elif c < LOOK:
                bids[me] = c - MAX_BID - 1
                blind |= 1 << me
            # the others' bids (and this seat's, when it looks) in turn order from the first bidder
            for i in range(4):
                s = (p.leader + i) & 3
                if bids[s] < 0:
                    side = s & 1 if rules.partnership else s
                    partner_bid = bids[(s + 2) & 3] if rules.partnership else -1
                    bids[s] = normal_bid(dealt[s], partner_bid, p.bags[side], rules, house)
            for s in range(4):
                hands[s] = dealt[s]
                won[s] = 0
                voids[s] = 0
            if house.pass_cards > 0:
                exchange(hands, bids, blind, house.pass_cards, house.pass_blind_only, -1, 0)
            rollout(table, Trick(0, p.leader, False), rules, near, sharp, me, False)
            values[c] += weight * round_value(me, bids, won, rules, house, p.bags, p.scores, blind)
            b = bids[me]
            if b == 0:
                made = won[me] == 0
            elif rules.partnership:
                counted = won[me] + (won[partner] if bids[partner] != 0 or rules.nil_counts else 0)
                made = counted >= b + (bids[partner] if bids[partner] > 0 else 0)
            else:
                made = won[me] >= b
            if made:
                makes[c] += weight
    if total > 0:
        values /= total
        makes /= total
    return values, makes


@njit(cache=True)
def pass_values(
    position: np.ndarray, candidates: np.ndarray, deals: int, seed: np.uint64, sharp: bool, worlds: np.ndarray
) -> np.ndarray:
    """For each set of cards in ``candidates`` (masks) this seat could give in the nil exchange:
    the weighted mean value of the round played out after the exchange, the other passing seats
    giving :func:`.passing.nil_pass` cards of their sampled hands (a partner that has passed
    already gave cards of its hand at the deal: its sampled hand holds them)."""
    p = position[0]
    me = p.seat
    rules, house, near = rollout_rules(p)
    rng, buf, dealt = new_dealer(seed)
    table = new_table()
    hands, won, bids, voids = table[0].hands, table[0].won, table[0].bids, table[0].voids
    nothing_played = np.zeros(4, dtype=np.int64)
    values = np.zeros(len(candidates), dtype=np.float64)
    total = 0.0
    for i in range(deals):
        deal_world(position, rng, buf, dealt, worlds, i)
        weight = deal_weight(me, dealt, nothing_played, p.bids, rules.deck, 0, 0, p.blind)
        total += weight
        for k in range(len(candidates)):
            for s in range(4):
                hands[s] = dealt[s]
                won[s] = 0
                voids[s] = 0
                bids[s] = p.bids[s]
            exchange(hands, bids, p.blind, house.pass_cards, house.pass_blind_only, me, candidates[k])
            rollout(table, Trick(0, p.leader, False), rules, near, sharp, me)
            values[k] += weight * round_value(me, bids, won, rules, house, p.bags, p.scores, p.blind)
    if total > 0:
        values /= total
    return values


PASS_SHORTLIST = 6  # hard weighs every set of nil_pass_cards among normal's first this many choices


def _pass_analysis(view: dict[str, Any], seed: int, deals: int, sharp: bool, worlds: np.ndarray) -> dict[str, Any]:
    """The nil exchange: every set of ``pass_count`` cards among normal's ``PASS_SHORTLIST`` first
    choices, played out; ties go to normal's own choice."""
    deck = deck_of(view)
    hand = mask_of(deck.parse(c) for c in view["hand"])
    count = view["pass_count"]
    nil_bidder = view["bids"][view["you"]] == 0
    usual = int(nil_pass(hand, count, nil_bidder))
    shortlist = list(cards_in(int(nil_pass(hand, min(PASS_SHORTLIST, hand.bit_count()), nil_bidder))))
    sets = [usual] + [m for m in sorted({mask_of(c) for c in combinations(shortlist, count)}) if m != usual]
    values = pass_values(position_of(view), np.array(sets, dtype=np.int64), deals, rng_seed(seed), sharp, worlds)
    best = max(range(len(sets)), key=lambda k: (round(float(values[k]), 9), -k))
    candidates = [{"pass": codes(m), "value": round(float(v), 2)} for m, v in zip(sets, values, strict=True)]
    return {"move": {"pass": codes(sets[best])}, "candidates": candidates}


def analysis(
    view: dict[str, Any],
    seed: int,
    bid_deals: int = BID_DEALS,
    play_samples: int = PLAY_SAMPLES,
    mismatch: float = PLAY_MISMATCH,
    sharp: bool = False,
    worlds: np.ndarray = NO_WORLDS,
) -> dict[str, Any]:
    """Hard's move and the figures behind it: ``{"move": ..., "candidates":
    [{"bid": n | "card": "QS", "value": v, "make_chance" | "trick_chance": p}]}``.

    ``value`` is the expected worth of the round to the seat's side (see
    :func:`.hard_scoring.round_value`); ``make_chance`` the chance a bid is
    made (a nil: no trick taken), ``trick_chance`` the chance the side takes
    the current trick with that card.  A lone legal move is not searched.
    A seat that may bid blind weighs ``{"look": true}`` against its blind bids
    (``{"bid": n, "blind": true}``); in the nil exchange it weighs sets of cards to give
    (``{"pass": [...], "value": v}``).  The sample sizes and the play-inference factor are
    parameters so that a stronger level can spend more time on the same search; ``worlds`` replaces
    the sampled deals (:func:`.dealing.deal_world`)."""
    if view["phase"] == "passing":
        return _pass_analysis(view, seed, bid_deals, sharp, worlds)
    position = position_of(view)
    legal = view["legal"]
    if view["phase"] == "bidding" and view["hand"] is None:
        return _blind_analysis(view, position, seed, bid_deals, sharp, worlds)
    kind = "bid" if view["phase"] == "bidding" else "card"
    if len(legal) == 1:
        return {"move": {kind: legal[0]}, "candidates": [{kind: legal[0]}]}
    if kind == "bid":
        wanted = np.zeros(LOOK + 1, dtype=np.bool_)
        wanted[legal] = True
        values, makes = bid_values(position, wanted, bid_deals, rng_seed(seed), sharp, worlds)
        best = max(legal, key=lambda b: (round(float(values[b]), 9), -b))
        candidates = [
            {"bid": b, "value": round(float(values[b]), 2), "make_chance": round(float(makes[b]), 3)} for b in legal
        ]
        return {"move": {"bid": best}, "candidates": candidates}
    deck = deck_of(view)
    cards = [deck.parse(c) for c in legal]
    mask = sum(1 << c for c in cards)
    values, takes = play_values(position, mask, mismatch, play_samples, rng_seed(seed), sharp, worlds)
    top = max(round(float(values[c]), 9) for c in cards)
    chosen = lowest_by_rank(sum(1 << c for c in cards if round(float(values[c]), 9) == top))
    candidates = [
        {"card": card_code(c), "value": round(float(values[c]), 2), "trick_chance": round(float(takes[c]), 3)}
        for c in cards
    ]
    return {"move": {"card": card_code(chosen)}, "candidates": candidates}


def _blind_analysis(
    view: dict[str, Any], position: np.ndarray, seed: int, deals: int, sharp: bool, worlds: np.ndarray
) -> dict[str, Any]:
    """A seat that may bid blind: looking against each blind bid, over deals of its own hand too.
    Ties go to looking, then to the lowest bid."""
    blind_bids = view.get("legal_blind") or []
    if not blind_bids:  # nothing to weigh: looking is the only move
        return {"move": {"look": True}, "candidates": [{"look": True}]}
    wanted = np.zeros(LOOK + 1, dtype=np.bool_)
    wanted[LOOK] = True
    for b in blind_bids:
        wanted[MAX_BID + 1 + b] = True
    values, makes = bid_values(position, wanted, deals, rng_seed(seed), sharp, worlds)
    look_value = round(float(values[LOOK]), 2)
    candidates: list[dict[str, Any]] = [{"look": True, "value": look_value}]
    best: dict[str, Any] = {"look": True}
    best_key = (round(float(values[LOOK]), 9), 1, 0)
    for b in blind_bids:
        value = float(values[MAX_BID + 1 + b])
        candidates.append(
            {"bid": b, "blind": True, "value": round(value, 2), "make_chance": round(float(makes[MAX_BID + 1 + b]), 3)}
        )
        key = (round(value, 9), 0, -b)
        if key > best_key:
            best, best_key = {"bid": b, "blind": True}, key
    return {"move": best, "candidates": candidates}


def move(view: dict[str, Any], seed: int) -> dict[str, Any]:
    """Hard's move for the seat whose turn ``view`` shows."""
    return analysis(view, seed)["move"]
