"""Seed 000's "standard" level, and the Monte Carlo bid it shares with pro.

A level's move is a function of one seat's view and a seed; unseen cards are
drawn only from the cards the view does not show.  Interpretations of seed
000 (each one a choice the seed leaves open):

Play (one implementation: :func:`services.ai_worker.playout.standard_choice`)
    * "Bid made": the seat's tricks ≥ its bid.  In partnership the bid is the
      team contract (the partners' non-nil bids added) and the tricks are the
      team's tricks as the engine counts them (a nil partner's tricks only when
      ``nil_tricks_count_for_team``).  A nil bidder's bid is always made: it
      tries to lose every trick.
    * "Lowest"/"highest card" across suits means by rank, ties broken by suit
      order clubs < diamonds < hearts < spades (the engine's
      ``lowest_by_rank``/``highest_by_rank``); within one suit it is the rank.
    * "No chance to take the trick": none of its legal cards beats the card
      currently winning the trick (later seats are not guessed at).
    * Bid not made, leading: leads its highest legal card.  Following suit:
      its highest card of the led suit if that beats the current winner,
      otherwise its lowest legal card.  Void in the led suit: the lowest spade
      that beats the current winner if it has one, otherwise its lowest card.
    * Bid made: leading, its lowest legal card; following, its lowest legal
      card that does not beat the current winner; when every legal card would
      beat it ("must take the trick"), its highest legal card.
    * Partnership (seed 000 has no partners; this adaptation is ours): a seat
      whose partner is winning the trick does not overtake – it plays its
      lowest legal card that does not beat the partner; if every card would
      (rare), the highest when its bid is made, else the lowest – except a
      partner whose nil is still alive: that partner is overtaken with the
      cheapest card that beats it (the lowest of the led suit, or the lowest
      winning spade when void), so standard never throws its partner's nil.

Bid, standard and pro (:func:`bid_tricks`)
    * For each bid b in 0..13 the same 100 random deals of the unseen cards
      (the other three hands, 13 cards each) are played out from the first
      lead with every seat standard and this seat bidding b; seats that have
      not bid yet get a heuristic bid (:func:`estimate_bid`: high cards, suit
      lengths, spades; at least 1), seats that have bid keep it.
    * "Average tricks taken" is this seat's own tricks (in partnership too: the
      team contract drives the play, but the bid chosen is the seat's part).
    * The bid is the highest b in 1..13 whose average is strictly above b.
      If there is none, the seat bids nil (0): read literally, 0 is then the
      highest bid whose average is above it (or no bid qualifies at all when
      even nil play took no trick – nil again).
    * If that bid is not in the view's legal list (nil disabled, team minimum
      or maximum, suicide), the nearest legal bid is used, the lower one on a tie.

House rules, standard and pro (seed 000 knows none of them): they never bid
blind (they look, then bid as above); in the nil exchange a nil bidder gives
its highest cards by rank and its partner its lowest
(:func:`..passing.rank_pass`); the jokers and a high 2 of spades are simply
the highest spades, and the simulations deal and play the game's deck.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from services.computers import nearest_legal
from services.engine import card_code

from ..bits import MAX_BID, SPADE_MASK, SUIT_FIELD, popcount, spade_ranks
from ..dealing import deal_unseen, new_dealer, rng_seed
from ..passing import LOOK, pass_move, rank_pass
from ..playout import playout, standard_card
from ..position import Position, position_of
from ..records import Trick, new_table, rules_of, trick_of

DEALS_PER_BID = 100


@njit(cache=True, inline="always")
def _add_honours(total: float, field: int, length: int, ace: float, king: float, queen: float) -> float:
    """``total`` plus the worth of a suit's ace, guarded king (2+ cards) and
    twice-guarded queen (3+ cards), added one by one in that order."""
    if field & (1 << 12):
        total += ace
    if field & (1 << 11) and length >= 2:
        total += king
    if field & (1 << 10) and length >= 3:
        total += queen
    return total


@njit(cache=True)
def estimate_bid(hand: int, deck: int) -> int:
    """A quick bid for a simulated seat that has not bid yet.

    Side suits: an ace is a trick, a king with a guard (2+ cards) 0.8, a
    queen with two guards (3+ cards) 0.4.  Spades: the ace, a guarded king and
    a twice-guarded queen are tricks, and every spade past the third is a
    trick; spades left over after that may ruff: +1 per void side suit, +0.5
    per singleton, up to that many spare spades.  Rounded, at least 1.  The
    deck's top spades (jokers, a high 2) count as its ace, king and queen.
    """
    estimate = 0.0
    ruffs = 0.0
    for suit in range(3):
        field = (hand >> (13 * suit)) & SUIT_FIELD
        length = popcount(field)
        estimate = _add_honours(estimate, field, length, 1.0, 0.8, 0.4)
        if length == 0:
            ruffs += 1.0
        elif length == 1:
            ruffs += 0.5
    spades = spade_ranks(hand, deck)
    length = popcount(hand & SPADE_MASK)
    spade_tricks = _add_honours(0.0, spades, length, 1.0, 1.0, 1.0)
    if length > 3:
        spade_tricks += length - 3
    spade_tricks = min(spade_tricks, length)
    spare = length - spade_tricks
    estimate += spade_tricks + min(ruffs, float(spare))
    bid = int(estimate + 0.5)
    return max(1, min(MAX_BID, bid))


@njit(cache=True)
def bid_tricks(position: np.ndarray, deals: int, seed: np.uint64) -> np.ndarray:
    """Average tricks the seat takes, for each bid 0..13, over ``deals`` random
    deals of the unseen cards played out from the start of the round with
    every seat standard (a seat yet to bid gets :func:`estimate_bid` of its
    sampled hand).

    The same deals serve every bid (common random numbers), so the bids are
    compared on equal luck.  Exact shortcut: a bid only changes play once it
    is made, so a playout in which the contract was never reached gives the
    same tricks for every higher bid; it is reused instead of replayed.
    """
    p = position[0]
    me = p.seat
    rules = rules_of(p)
    rng, buf, dealt = new_dealer(seed)
    table = new_table()
    hands, won, bids = table[0].hands, table[0].won, table[0].bids
    first_lead = Trick(0, p.leader, False)
    totals = np.zeros(MAX_BID + 1, dtype=np.float64)
    partner = (me + 2) & 3
    for _ in range(deals):
        deal_unseen(position, rng, buf, dealt)
        for s in range(4):
            bids[s] = p.bids[s] if p.bids[s] >= 0 else estimate_bid(dealt[s], rules.deck)
        # Highest bid first: that playout (contract out of reach until the
        # last trick) is the "never made" line shared by all high bids.
        never_tricks = -1
        never_team = -1
        for bid in range(MAX_BID, -1, -1):
            contract = bid
            if rules.partnership:
                contract += bids[partner]
            if bid > 0 and never_tricks >= 0 and contract > never_team:
                totals[bid] += never_tricks
                continue
            bids[me] = bid
            for s in range(4):
                hands[s] = dealt[s]
                won[s] = 0
            playout(table, first_lead, rules)
            if bid == MAX_BID:
                never_tricks = won[me]
                never_team = won[me]
                if rules.partnership and (bids[partner] != 0 or rules.nil_counts):
                    never_team += won[partner]
            totals[bid] += won[me]
    return totals / deals


@njit(cache=True)
def position_card(position: np.ndarray) -> int:
    """The standard card for the seat of ``position``."""
    p = position[0]
    return standard_card(p.seat, p.hand, position, trick_of(p), rules_of(p))


def bid_averages(position: Position, seed: int, deals: int = DEALS_PER_BID) -> np.ndarray:
    """Average tricks this seat takes for each bid 0..13 (see the module doc)."""
    return bid_tricks(position, deals, rng_seed(seed))


def choose_bid(averages: np.ndarray) -> int:
    """The highest bid 1..13 whose average tricks are strictly above it; 0 (nil) if none."""
    for bid in range(MAX_BID, 0, -1):
        if averages[bid] > bid:
            return bid
    return 0


def monte_carlo_bid(view: dict[str, Any], seed: int) -> int:
    """Standard's and pro's bid (see the module doc)."""
    return nearest_legal(choose_bid(bid_averages(position_of(view), seed)), view["legal"])


def house_move(view: dict[str, Any]) -> dict[str, Any] | None:
    """Standard's and pro's move in the house rules' own decisions (a hidden hand: look; the nil
    exchange: :func:`..passing.rank_pass`), or None for a bid or a card."""
    if view["phase"] == "passing":
        return pass_move(view, rank_pass)
    if view["hand"] is None:
        return LOOK
    return None


def move(view: dict[str, Any], seed: int) -> dict[str, Any]:
    """Standard's move for the seat whose turn ``view`` shows."""
    house = house_move(view)
    if house is not None:
        return house
    if view["phase"] == "bidding":
        return {"bid": monte_carlo_bid(view, seed)}
    return {"card": card_code(int(position_card(position_of(view))))}
