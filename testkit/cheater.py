"""A test-only cheater: expert's search run on the true deal (all four hands known) instead of sampled deals.

Never reachable from the API or the catalogue: ``benchmarks.accuracy`` seats it to show that a player who sees the
other hands is told apart from the levels by its accuracy (``services.ratings.accuracy``).  It bids as expert does
(from its view: a bid's search samples the deal anyway, and it is one decision of fourteen) and plays each card by
expert's search with every sampled deal replaced by the true one: the round played out by expert's rollouts after
each legal card (every seat's cards known, so one rollout per card), and from five tricks left in a partnership
game the true deal solved exactly (:mod:`services.ai_worker.levels.dd`) — perfect play from there.  The
true-deal evaluation a finished round's cards are scored by (:mod:`services.ai_worker.true_deal`) values only
cards with at most 8 tricks left, solved exactly: the cheater's rollout cards from 6 to 8 tricks left are judged
by a search it did not make, its cards before 8 tricks left are not scored.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from services.ai_worker import decide
from services.ai_worker.bits import INDEX_LIMIT, lowest_index
from services.ai_worker.levels import hard
from services.ai_worker.levels.dd import new_memo
from services.ai_worker.levels.hard_scoring import round_value
from services.ai_worker.playout import lay_card
from services.ai_worker.position import position_of
from services.ai_worker.records import new_table
from services.ai_worker.true_deal import exact_values
from services.engine import GameState, card_code, lowest_by_rank, parse_card

EXACT_FROM = 5  # tricks left from which the true deal is solved exactly (expert's endgame)


@njit(cache=True)
def rollout_values(position: np.ndarray, candidates: int, hands: np.ndarray) -> np.ndarray:
    """Each candidate card's value: the round played out by expert's rollouts on the true ``hands``."""
    p = position[0]
    rules, house, near = hard.rollout_rules(p)
    table = new_table()
    values = np.full(INDEX_LIMIT, -1e9)
    rest = candidates
    while rest:
        card = lowest_index(rest)
        rest &= rest - 1
        hard.rollout(table, lay_card(table, position, hands, card), rules, near, True)
        values[card] = round_value(p.seat, table[0].bids, table[0].won, rules, house, p.bags, p.scores, p.blind)
    return values


def cheat(state: GameState, view: dict[str, Any], seed: int) -> dict[str, Any]:
    """The cheater's move for the seat whose turn ``view`` (of ``state``) shows."""
    if view["phase"] != "playing" or len(view["legal"]) == 1:
        return decide(view, "expert", seed)
    cards = [parse_card(c) for c in view["legal"]]
    mask = sum(1 << c for c in cards)
    hands = np.array(state.hands, dtype=np.int64)
    position = position_of(view)
    if len(view["hand"]) <= EXACT_FROM and view["rules"]["scoring"] == "partnership":
        values = exact_values(position, mask, hands, *new_memo())
    else:
        values = rollout_values(position, mask, hands)
    top = max(round(float(values[c]), 9) for c in cards)
    return {"card": card_code(lowest_by_rank(sum(1 << c for c in cards if round(float(values[c]), 9) == top)))}
