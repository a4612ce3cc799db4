"""Seed 000's "pro" level: bids as standard, plays the card most (or least)
likely to take the trick.

Interpretations of seed 000 for pro's play (:func:`pro_trick_wins`):

* For each legal card, the chance the trick is taken when it plays that card
  and the seats after it play standard, over the same 100 sampled
  distributions of the unseen cards; only the current trick is completed.
  "Taken" means by this seat, or in partnership by either partner unless one
  of them bid nil (a nil bid is the seat's own).
* Bid made (as in standard): the card least likely to take the trick.  Not
  made: the card most likely to, if its chance is above 50%; otherwise the
  least likely card.  Ties: the lowest card (by rank, then suit).  A single
  legal card is played without simulating.
* Partnership: when the partner's nil is alive and the partner is winning
  the trick, only the cards that overtake it are candidates (if any), so pro
  never throws its partner's nil either.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from services.computers import deck_of
from services.engine import card_code, lowest_by_rank

from ..bits import INDEX_LIMIT, beating_mask, lowest_index, trick_state
from ..dealing import deal_unseen, new_dealer, rng_seed
from ..playout import bid_made, lay_card, partner_nil_alive, play_trick
from ..position import Position, position_of
from ..records import new_table, rules_of, trick_of
from .standard import house_move, monte_carlo_bid

SAMPLES_PER_PLAY = 100


@njit(cache=True)
def pro_trick_wins(position: np.ndarray, candidates: int, samples: int, seed: np.uint64) -> np.ndarray:
    """For each card in ``candidates`` (a mask): in how many of ``samples``
    sampled distributions of the unseen cards the trick is taken (by the seat,
    or in partnership by either partner unless one of them bid nil) when the
    seat plays it and the seats after it play standard.  The same samples
    serve every card.  Returns ``INDEX_LIMIT`` counts indexed by card."""
    p = position[0]
    me = p.seat
    rules = rules_of(p)
    rng, buf, dealt = new_dealer(seed)
    table = new_table()
    wins = np.zeros(INDEX_LIMIT, dtype=np.int64)
    partner = (me + 2) & 3
    team = rules.partnership and p.bids[me] != 0 and p.bids[partner] != 0
    for _ in range(samples):
        deal_unseen(position, rng, buf, dealt)
        rest = candidates
        while rest:
            card = lowest_index(rest)
            rest &= rest - 1
            winner = play_trick(table, lay_card(table, position, dealt, card), rules)
            if winner == me or (team and winner == partner):
                wins[card] += 1
    return wins


@njit(cache=True)
def overtaking_nil_partner(position: np.ndarray, candidates: int) -> int:
    """The candidates that overtake a partner whose nil is alive and who is
    winning the trick (all candidates when that is not the case or none can)."""
    p = position[0]
    if not partner_nil_alive(p.seat, p.bids, p.won, p.partnership) or p.trick_n == 0:
        return candidates
    _, best, winner = trick_state(position, trick_of(p))
    if winner != (p.seat + 2) % 4:
        return candidates
    overtaking = candidates & beating_mask(best)
    return overtaking or candidates


@njit(cache=True)
def seat_made(position: np.ndarray) -> bool:
    """The seat's bid is made (standard's sense: see :func:`.playout.bid_made`)."""
    p = position[0]
    return bid_made(p.seat, p.bids, p.won, rules_of(p))


def pro_win_counts(position: Position, candidates: int, seed: int, samples: int = SAMPLES_PER_PLAY) -> np.ndarray:
    """For each card (index), in how many samples playing it takes the trick."""
    return pro_trick_wins(position, candidates, samples, rng_seed(seed))


def pro_card(position: Position, candidates: int, seed: int, samples: int = SAMPLES_PER_PLAY) -> int:
    """The pro strategy's card among ``candidates`` (the legal cards, a mask)."""
    wins = pro_win_counts(position, candidates, seed, samples)
    cards = [c for c in range(INDEX_LIMIT) if candidates >> c & 1]
    best = max(wins[c] for c in cards)
    wants_trick = not seat_made(position) and best * 2 > samples  # "more than 50%"
    target = best if wants_trick else min(wins[c] for c in cards)
    return lowest_by_rank(sum(1 << c for c in cards if wins[c] == target))


def move(view: dict[str, Any], seed: int) -> dict[str, Any]:
    """Pro's move for the seat whose turn ``view`` shows."""
    house = house_move(view)
    if house is not None:
        return house
    if view["phase"] == "bidding":
        return {"bid": monte_carlo_bid(view, seed)}
    deck = deck_of(view)
    legal = [deck.parse(c) for c in view["legal"]]
    if len(legal) == 1:
        return {"card": card_code(legal[0])}
    position = position_of(view)
    candidates = overtaking_nil_partner(position, sum(1 << c for c in legal))
    return {"card": card_code(pro_card(position, int(candidates), seed))}
