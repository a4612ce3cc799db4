"""Expert: hard's search with the time a person's opponent may take.

Hard decides in a few milliseconds; a person waits happily a few hundred for
a computer opponent.  Expert spends that time on the same determinized search
(:mod:`.hard`) and makes it sharper:

* **More deals.**  Four times hard's sampled deals per decision (and three
  times for a card), so that the chosen move is not an accident of the sample.
* **Sharper rollouts.**  Every seat of a rollout plays
  :func:`.normal.attacking_card`: normal's play with a competent attack
  on a rival's nil (in the individual game too), so that the search
  neither bids nils that a good player would set nor misses the cards
  that set them; in the individual game with no bag penalty, a seat whose
  contract is made keeps taking tricks (normal ducks them as bags, which
  there cost nothing and hand the trick to a rival still playing for its
  contract): the searching seat alone, since the rivals at the table duck
  (a search that lets them take every trick they can underbids).
* **Exact endgames.**  Once five tricks or fewer are left in a
  partnership game, each sampled deal (up to a budget of searched positions,
  which bounds the time of a card) is solved exactly (:mod:`.dd`: both sides
  playing their best with every card known) instead of played out by normal,
  which misjudges close endings (who takes the last bag, whether a contract or
  a nil is set).  Each deal is weighed as hard weighs it (bids, voids, and the
  plays normal would not have made); the chance of taking the trick stays
  the rollouts' figure.

Measured in ``docs/ai.md``; each component's gain was measured there too
(more deals alone gained nothing measurable; the exact endgame and the sharp
rollouts did, and in the individual game the tricks taken rather than ducked).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from services.computers import deck_of
from services.engine import card_code, lowest_by_rank

from ..bits import INDEX_LIMIT, lowest_index, trick_state
from ..dealing import NO_WORLDS, deal_world, new_dealer, rng_seed
from ..position import position_of
from . import hard
from .dd import card_values, new_memo
from .hard_inference import in_play_weight

BID_DEALS = 1200  # deals per candidate bid (hard: 300)
PLAY_SAMPLES = 1000  # deals per candidate card (hard: 300)
# deals solved exactly per endgame decision, by tricks left (none: played out by the rollouts)
DD_SAMPLES = {1: 200, 2: 200, 3: 200, 4: 200, 5: 200}
# positions an endgame decision searches at most (it stops sampling deals once spent): about 200 ms
# of one core (benchmarks.endgame), so that a card keeps within the time a person's opponent may take
DD_NODE_BUDGET = 1_200_000
NO_NODE_BUDGET = 2**62  # a budget never reached: every sampled deal solved (measurements, tests)


@njit(cache=True)
def endgame_values(
    position: np.ndarray,
    candidates: int,
    mismatch: float,
    samples: int,
    node_budget: int,
    seed: np.uint64,
    memo_keys: np.ndarray,
    memo_bounds: np.ndarray,
    memo_nodes: np.ndarray,
    worlds: np.ndarray,
) -> np.ndarray:
    """For each card in ``candidates``: its weighted mean exact value over ``samples`` sampled deals
    (:func:`.dealing.deal_world`'s), fewer once the deals solved have searched ``node_budget`` positions
    (deals weighted as hard weighs them; ``memo_*``: an empty memo of :func:`.dd.new_memo`, shared by the
    deals, that counts the positions).  Returns an array of ``INDEX_LIMIT`` indexed by card."""
    p = position[0]
    me = p.seat
    rules, house, near = hard.rollout_rules(p)
    rng, buf, dealt = new_dealer(seed)
    values = np.zeros(INDEX_LIMIT, dtype=np.float64)
    one = np.zeros(INDEX_LIMIT, dtype=np.float64)
    hands = np.zeros(4, dtype=np.int64)
    won = np.zeros(4, dtype=np.int64)
    state = np.zeros(11, dtype=np.int64)
    scoring = np.zeros(13, dtype=np.int64)
    for s in range(4):
        scoring[s] = p.bids[s]
        scoring[4 + s] = p.bags[s]
        scoring[8 + s] = p.scores[s]
    scoring[12] = p.blind
    led, best, winner = trick_state(position, hard.Trick(p.trick_n, p.leader, p.broken))
    total = 0.0
    for i in range(samples):
        deal_world(position, rng, buf, dealt, worlds, i)
        weight = in_play_weight(position, dealt, rules, near, mismatch)
        total += weight
        for s in range(4):
            hands[s] = dealt[s]
            won[s] = p.won[s]
        state[0], state[1], state[2] = me, p.leader, p.trick_n
        state[3], state[4], state[5], state[6] = led, best, winner, 1 if p.broken else 0
        for k in range(p.trick_n):
            state[7 + k] = p.trick[k]
        card_values(hands, won, state, rules, house, scoring, candidates, one, memo_keys, memo_bounds, memo_nodes)
        rest = candidates
        while rest:
            card = lowest_index(rest)
            rest &= rest - 1
            values[card] += weight * one[card]
        if memo_nodes[0] >= node_budget:
            break
    if total > 0:
        values /= total
    return values


def analysis(
    view: dict[str, Any],
    seed: int,
    dd_samples: dict[int, int] = DD_SAMPLES,
    node_budget: int = DD_NODE_BUDGET,
    worlds: np.ndarray = NO_WORLDS,
) -> dict[str, Any]:
    """Expert's move and the figures behind it, in :func:`.hard.analysis`'s shape (``dd_samples``:
    deals solved exactly by tricks left, ``node_budget``: positions searched at most; parameters so
    that variants can be measured).  ``worlds`` (four hands a row), when given, are the deals every
    search weighs, each once, instead of its samples: ``benchmarks.limit`` searches the true deal."""
    supplied = len(worlds)
    bid_deals, play_samples = (supplied, supplied) if supplied else (BID_DEALS, PLAY_SAMPLES)
    result = hard.analysis(view, seed, bid_deals=bid_deals, play_samples=play_samples, sharp=True, worlds=worlds)
    if (
        view["phase"] != "playing"
        or len(view["legal"]) == 1
        or view["rules"]["scoring"] != "partnership"
        or len(view["hand"]) not in dd_samples
    ):
        return result
    deck = deck_of(view)
    cards = [deck.parse(c) for c in view["legal"]]
    values = endgame_values(
        position_of(view),
        sum(1 << c for c in cards),
        hard.PLAY_MISMATCH,
        supplied or dd_samples[len(view["hand"])],
        node_budget,
        rng_seed(seed),
        *new_memo(),
        worlds,
    )
    value = {c: round(float(values[c]), 9) for c in cards}
    top = max(value.values())
    chosen = lowest_by_rank(sum(1 << c for c in cards if value[c] == top))
    takes = {c["card"]: c.get("trick_chance") for c in result["candidates"]}
    candidates = [
        {"card": card_code(c), "value": round(float(values[c]), 2), "trick_chance": takes[card_code(c)]} for c in cards
    ]
    return {"move": {"card": card_code(chosen)}, "candidates": candidates}


def move(view: dict[str, Any], seed: int) -> dict[str, Any]:
    """Expert's move for the seat whose turn ``view`` shows."""
    return analysis(view, seed)["move"]
