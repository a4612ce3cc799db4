"""Seed 002's "normal" level: its play, as compiled rules (its bid: :mod:`.normal_bid`).

``normal_card`` is the one implementation of normal's rules below, and
``attacking_card`` is the same play with a competent attack on an
opponent's nil (rule 3 sharpened, below).  The live normal level and
expert's rollouts play ``attacking_card``; hard's rollouts and its play
inference play ``normal_card``, so hard is what ``docs/ai.md`` measures.
Both read what a seat may know: its hand, the cards still out (every card
neither played nor in its hand), the trick in progress, the bids and the
tricks won.

Interpretations of seed 002 ("estimates tricks from high cards, suit length
and spades; protects its partner's nil; manages bags"), in the order they
decide a card:

1. **Own nil** (alive): lead the lowest card, preferring suits with many
   higher cards out; follow with the highest card that stays under the
   winning card (the lowest when every card would win, the highest when last
   to play and forced to win); when void, discard the most dangerous card
   (highest side card), never trump unless only spades are left.
2. **Partner's nil** (alive): when the partner is winning the trick,
   overtake with the cheapest card that beats it; when the partner plays
   after this seat, play high (the highest card of the suit, the lowest
   winning trump when void) so the partner can play under it; lead the
   highest card, boss cards first.
3. **An opponent's nil** (alive, and this side's contract not at risk):
   never overtake a nil bidder who is winning; when the nil bidder plays
   later in the trick, keep the trick low (the lowest card that follows);
   lead low in a suit the nil bidder has not shown void in.
   ``attacking_card`` sharpens this, since a nil is worth 100 points to its
   side either way and normal's rule sets few of a strong player's nils:
   it **leads** its lowest card of a suit the nil bidder has not shown void
   in, choosing the suit with the fewest cards out below that card (the nil
   bidder then holds few cards that can duck it) and some above it;
   **follows before the nil bidder** with its lowest card of the suit, and
   void, discards its highest side card (never a trump, which would take
   the trick and spare the nil), keeping its low cards to lead later;
   **follows after a nil bidder who is winning** with its highest card that
   stays under it; and the live level attacks even when its side needs
   every trick left (``at_any_cost``: setting a nil swings 200 points).
   The live level attacks in partnership only (in the individual game
   setting one rival's nil helps the other two); expert's rollouts attack
   any rival's nil in the individual game too (``rivals_nil``), since the
   rivals it meets do.
4. **Contract**: the side still needs tricks, or the other side can still
   be set (it needs at least all but one of the tricks left) and bags are
   not near the limit: lead a boss card (the highest card out in its suit),
   else low from the longest side suit; second hand low, third hand high,
   last hand wins as cheaply as it can; a partner whose card no card out
   can beat is left to win; void, trump with the lowest winning spade.
   Otherwise (contract made, nobody to set: every trick is a bag): duck –
   the highest card that does not win, the highest side card when void,
   the lowest card to lead.  (Expert's rollouts in the individual game with
   no bag penalty play for tricks here instead: ``attacking_card``'s
   ``greedy``.)

"Highest"/"lowest" across suits is by rank, ties broken by suit order as in
the engine (``lowest_by_rank``/``highest_by_rank``).

House rules: normal never bids blind (it looks at its hand, then bids as
above); under suicide its bid follows :func:`.normal_bid.normal_bid`; in the
nil exchange it gives :func:`..passing.nil_pass`'s cards.  The jokers and a
high 2 of spades are its top spades everywhere (the kernel's ranking).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from services.computers import nearest_legal
from services.engine import card_code

from ..bits import (
    NO_CARD,
    SPADE_MASK,
    SPADES,
    beating_mask,
    highest_by_rank,
    highest_index,
    legal_mask,
    lowest_by_rank,
    lowest_index,
    popcount,
    suit_of,
    suit_of_mask,
    trick_state,
)
from ..passing import LOOK, nil_pass, pass_move
from ..position import position_of
from ..records import Rules, Trick, rules_of, trick_of
from .normal_bid import bags_near, position_bid


@njit(cache=True, inline="always")
def side_need(seat: int, bids: np.ndarray, won: np.ndarray, rules: Rules) -> int:
    """Tricks ``seat``'s side still needs for its contract (≤ 0 once made;
    0 for a lone nil bidder).  Partnership: non-nil bids added, against the
    tricks the engine counts for the team."""
    if not rules.partnership:
        bid = bids[seat]
        return bid - won[seat] if bid > 0 else 0
    need = 0
    for s in (seat, (seat + 2) & 3):
        if bids[s] > 0:
            need += bids[s] - won[s]
        elif rules.nil_counts:
            need -= won[s]
    return need


@njit(cache=True, inline="always")
def is_boss(card: int, out: int) -> bool:
    """No card still out of the same suit ranks above ``card``."""
    suit = suit_of(card)
    above = suit_of_mask(out, suit) & ~((np.int64(2) << card) - 1)
    return above == 0


@njit(cache=True, inline="always")
def cheapest_winner(legal: int, best: int) -> int:
    """The lowest legal card that beats ``best`` (NO_CARD if none): within the
    led suit when following, else the lowest winning spade."""
    beat = legal & beating_mask(best)
    if not beat:
        return NO_CARD
    side = beat & ~SPADE_MASK
    return lowest_index(side) if side else lowest_index(beat)


@njit(cache=True, inline="always")
def highest_under(legal: int, best: int) -> int:
    """The highest legal card that does not beat ``best`` (NO_CARD if none);
    side cards before spades."""
    under = legal & ~beating_mask(best)
    if not under:
        return NO_CARD
    side = under & ~SPADE_MASK
    return highest_by_rank(side) if side else highest_index(under)


@njit(cache=True)
def _nil_lead(legal: int, out: int) -> int:
    """A nil bidder's lead: its lowest card, from the side suit with the most
    cards out above it."""
    best = NO_CARD
    best_key = -1000
    for suit in range(4):
        field = suit_of_mask(legal, suit)
        if not field:
            continue
        card = lowest_index(field)
        above = popcount(suit_of_mask(out, suit) & ~((np.int64(2) << card) - 1))
        key = above * 4 - (card - 13 * suit) - (20 if suit == SPADES else 0)
        if key > best_key:
            best_key = key
            best = card
    return best


@njit(cache=True)
def _strong_lead(legal: int, out: int) -> int:
    """A lead that wants the trick (or covers a nil partner): a boss card of a
    side suit still held by others, a boss spade, else the highest card."""
    for suit in range(3):
        field = suit_of_mask(legal, suit)
        if field:
            top = highest_index(field)
            if is_boss(top, out) and popcount(suit_of_mask(out, suit)) >= 2:
                return top
    spades = suit_of_mask(legal, SPADES)
    if spades and is_boss(highest_index(spades), out) and suit_of_mask(out, SPADES):
        return highest_index(spades)
    return NO_CARD


@njit(cache=True)
def _low_long_lead(legal: int, avoid_void: int) -> int:
    """The lowest card of the longest side suit (not a suit in ``avoid_void``,
    a 4-bit set); spades only when nothing else is legal."""
    best = NO_CARD
    best_len = -1
    for pass_ in range(2):
        for suit in range(3):
            if pass_ == 0 and (avoid_void >> suit) & 1:
                continue
            field = suit_of_mask(legal, suit)
            n = popcount(field)
            if n > best_len:
                best_len = n
                best = lowest_index(field)
        if best != NO_CARD and best_len > 0:
            return best
    return lowest_by_rank(legal)


@njit(cache=True)
def normal_card(
    me: int,
    hand: int,
    out: int,
    table: np.ndarray,
    trick: Trick,
    rules: Rules,
    near_penalty: bool,
    bags_free: bool = False,
) -> int:
    """Normal's card (see the module docstring for the rules, in order).

    ``out`` is every card neither played nor in ``hand``; ``table`` (a
    ``TABLE``, or a ``POSITION`` for live play) gives the bids, the tricks won,
    the suits each seat has shown void in and the trick's cards; ``near_penalty`` says this seat's side is within
    ``BAGS_NEAR`` bags of the penalty (:func:`.normal_bid.bags_near`); ``bags_free``: rule 4 plays for tricks
    even once the contract is made (a bag costs nothing: :func:`attacking_card` in the individual game).
    """
    t = table[0]
    bids, won, void_suits = t.bids, t.won, t.voids
    partnership = rules.partnership
    trick_n, leader = trick.n, trick.leader
    led, best, winner = trick_state(table, trick)
    legal = legal_mask(hand, led, trick.broken, rules.must_break)
    if legal & (legal - 1) == 0:
        return lowest_index(legal)
    partner = (me + 2) & 3
    last = trick_n == 3
    # ---- 1. own nil
    if bids[me] == 0 and won[me] == 0:
        if led < 0:
            return _nil_lead(legal, out)
        under = highest_under(legal, best)
        if under != NO_CARD:
            return under
        if last:
            return highest_by_rank(legal)
        side = legal & ~SPADE_MASK
        return lowest_index(side) if side and led != SPADES else lowest_index(legal)
    # seats still to play in this trick, as a 4-bit set
    later = 0
    for k in range(trick_n + 1, 4):
        later |= 1 << ((leader + k) & 3)
    # ---- 2. partner's nil
    if partnership and bids[partner] == 0 and won[partner] == 0:
        if led < 0:
            card = _strong_lead(legal, out)
            return card if card != NO_CARD else highest_by_rank(legal)
        if winner == partner or (later >> partner) & 1:
            follow = suit_of_mask(legal, led)
            if winner != partner and follow:
                return highest_index(follow)  # the partner plays later: leave it room under this card
            card = cheapest_winner(legal, best)
            return card if card != NO_CARD else lowest_by_rank(legal)
    need = side_need(me, bids, won, rules)
    tricks_left = popcount(hand)
    # ---- 3. an opponent's nil
    nil_opp = -1
    for s in range(4):
        if s == me or (partnership and s == partner):
            continue
        if bids[s] == 0 and won[s] == 0:
            nil_opp = s
    if nil_opp >= 0 and need < tricks_left:
        if led < 0:
            return _low_long_lead(legal, void_suits[nil_opp])
        if winner == nil_opp:
            under = highest_under(legal, best)
            if under != NO_CARD:
                return under
        elif (later >> nil_opp) & 1:
            follow = suit_of_mask(legal, led)
            if follow:
                return lowest_index(follow)
            under = legal & ~beating_mask(best)
            if under:
                return lowest_by_rank(under)
    # ---- 4. contract
    want = need > 0 or bags_free
    if not want and not near_penalty:
        opponent = (me + 1) & 3
        if partnership:
            opp_need = side_need(opponent, bids, won, rules)
            want = opp_need > 0 and opp_need >= tricks_left - 1
        else:
            for s in range(4):
                if s != me and bids[s] > 0 and bids[s] - won[s] > 0 and bids[s] - won[s] >= tricks_left - 1:
                    want = True
    if want:
        if led < 0:
            card = _strong_lead(legal, out)
            if card != NO_CARD:
                return card
            return _low_long_lead(legal, 0)
        partner_has_it = partnership and winner == partner and (last or not (out & beating_mask(best)))
        if partner_has_it or (partnership and winner == partner and trick_n == 2 and is_boss(best, out)):
            under = legal & ~beating_mask(best)
            return lowest_by_rank(under if under else legal)
        card = cheapest_winner(legal, best)
        if card == NO_CARD:
            side = legal & ~SPADE_MASK
            return lowest_by_rank(side) if side else lowest_by_rank(legal)
        follow = suit_of_mask(legal, led)
        if last or not follow:
            return card  # last hand, or a ruff: win as cheaply as possible
        top = highest_index(follow)
        if is_boss(top, out) and top == highest_index(legal & beating_mask(best)):
            return top  # a boss card wins for sure (unless ruffed)
        if trick_n == 1:
            return lowest_index(follow)  # second hand low
        return top  # third hand high
    # nothing to gain: every trick is a bag
    if led < 0:
        side = legal & ~SPADE_MASK
        return lowest_by_rank(side) if side else lowest_by_rank(legal)
    under = highest_under(legal, best)
    if under != NO_CARD:
        return under
    return highest_by_rank(legal) if last else cheapest_winner(legal, best)


@njit(cache=True)
def attack_lead(legal: int, out: int, nil_voids: int) -> int:
    """The lowest card of a suit the nil bidder may still hold, with the fewest cards out below it
    and at least one above it (NO_CARD when no suit qualifies); spades last among equals."""
    best = NO_CARD
    best_key = -(1 << 30)
    for suit in range(4):
        if (nil_voids >> suit) & 1:
            continue
        field = suit_of_mask(legal, suit)
        if not field:
            continue
        card = lowest_index(field)
        suit_out = suit_of_mask(out, suit)
        below = popcount(suit_out & ((np.int64(1) << card) - 1))
        above = popcount(suit_out & ~((np.int64(2) << card) - 1))
        if above == 0:
            continue
        key = -16 * below + above - (8 if suit == SPADES else 0)
        if key > best_key:
            best_key = key
            best = card
    return best


@njit(cache=True)
def attacking_card(
    me: int,
    hand: int,
    out: int,
    table: np.ndarray,
    trick: Trick,
    rules: Rules,
    near_penalty: bool,
    at_any_cost: bool,
    greedy: bool = False,
    rivals_nil: bool = False,
) -> int:
    """The card for ``me`` (other arguments as :func:`.normal.normal_card`); ``at_any_cost``: attack
    even when this side needs every trick left for its contract (the live level; measured better
    there), else play for the contract then (expert's rollouts, as measured).  The nil attack is
    partnership only, unless ``rivals_nil``: in the individual game setting one rival's nil helps the
    other two, and the live level's attack measured a loss there, but expert's rollouts model the rivals
    it meets, who set nils (``rivals_nil``: attack any other seat's nil there; measured a gain,
    docs/ai.md).  ``greedy`` (expert's rollouts): in the individual game with no bag penalty, keep taking
    tricks once the contract is made instead of ducking them, since each is a point and a trick no rival
    gets towards its contract (measured a gain there, docs/ai.md)."""
    partnership = rules.partnership
    bags_free = greedy and not partnership and rules.bag_penalty == 0
    if not partnership and not rivals_nil:
        return normal_card(me, hand, out, table, trick, rules, near_penalty, bags_free)
    t = table[0]
    bids, won = t.bids, t.won
    partner = (me + 2) & 3
    partner_nil = partnership and bids[partner] == 0 and won[partner] == 0
    nil_opp = -1
    if not (bids[me] == 0 and won[me] == 0) and not partner_nil:
        for s in range(4):
            rival = ((s - me) & 1) == 1 if partnership else s != me
            if rival and bids[s] == 0 and won[s] == 0:  # a rival's live nil
                nil_opp = s
    if nil_opp < 0 or (not at_any_cost and side_need(me, bids, won, rules) >= popcount(hand)):
        return normal_card(me, hand, out, table, trick, rules, near_penalty, bags_free)
    led, best, winner = trick_state(table, trick)
    legal = legal_mask(hand, led, trick.broken, rules.must_break)
    if legal & (legal - 1) == 0:
        return lowest_index(legal)
    if led < 0:
        card = attack_lead(legal, out, t.voids[nil_opp])
        if card != NO_CARD:
            return card
        return normal_card(me, hand, out, table, trick, rules, near_penalty, bags_free)
    nil_later = False
    for k in range(trick.n + 1, 4):
        if ((trick.leader + k) & 3) == nil_opp:
            nil_later = True
    if nil_later:
        follow = suit_of_mask(legal, led)
        if follow:
            return lowest_index(follow)
        under = legal & ~beating_mask(best)
        side = under & ~SPADE_MASK
        if side:
            return highest_by_rank(side)
        return lowest_by_rank(under) if under else lowest_by_rank(legal)
    if winner == nil_opp:
        card = highest_under(legal, best)
        if card != NO_CARD:
            return card
    return normal_card(me, hand, out, table, trick, rules, near_penalty, bags_free)


@njit(cache=True)
def position_card(position: np.ndarray, attack: bool, at_any_cost: bool) -> int:
    """Normal's card for the seat of ``position``: :func:`attacking_card` when ``attack`` (the live
    level: ``at_any_cost`` too), else :func:`normal_card` (hard's rollouts)."""
    p = position[0]
    rules = rules_of(p)
    near = bags_near(p.bags[p.seat % 2 if rules.partnership else p.seat], rules)
    if attack:
        return attacking_card(p.seat, p.hand, p.out, position, trick_of(p), rules, near, at_any_cost)
    return normal_card(p.seat, p.hand, p.out, position, trick_of(p), rules, near)


def move(view: dict[str, Any], seed: int) -> dict[str, Any]:
    """Normal's move for the seat whose turn ``view`` shows (``seed`` is unused: normal does not draw)."""
    if view["phase"] == "passing":
        return pass_move(view, nil_pass)
    if view["hand"] is None:
        return LOOK
    position = position_of(view)
    if view["phase"] == "bidding":
        return {"bid": nearest_legal(int(position_bid(position)), view["legal"])}
    return {"card": card_code(int(position_card(position, True, True)))}
