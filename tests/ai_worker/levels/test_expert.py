"""Expert's exact endgames (services.ai_worker.levels.expert): the deals it solves and its budget."""

from __future__ import annotations

import numpy as np

from services.ai_worker.dealing import NO_WORLDS, rng_seed
from services.ai_worker.levels import expert, hard
from services.ai_worker.levels.dd import new_memo
from services.ai_worker.position import position_of
from services.computers import deck_of

from ..helpers import endgame_views


def values_of(seat_view: dict, samples: int, budget: int) -> tuple[np.ndarray, int]:
    """The endgame values of the view's legal cards and the positions searched for them."""
    deck = deck_of(seat_view)
    legal = sum(1 << deck.parse(code) for code in seat_view["legal"])
    memo = new_memo()
    values = expert.endgame_values(
        position_of(seat_view), legal, hard.PLAY_MISMATCH, samples, budget, rng_seed(7), *memo, NO_WORLDS
    )
    return values, int(memo[2][0])


def test_the_budget_stops_the_sampling_after_the_deal_that_spends_it() -> None:
    seat_view = endgame_views(1, 4, seed=3)[0]
    first, first_nodes = values_of(seat_view, 1, expert.NO_NODE_BUDGET)
    two, two_nodes = values_of(seat_view, 2, expert.NO_NODE_BUDGET)
    assert 0 < first_nodes < two_nodes
    assert np.array_equal(values_of(seat_view, 200, 1)[0], first)  # at least one deal
    assert np.array_equal(values_of(seat_view, 200, first_nodes)[0], first)
    assert np.array_equal(values_of(seat_view, 200, first_nodes + 1)[0], two)


def test_a_budget_never_reached_solves_every_deal() -> None:
    seat_view = endgame_views(1, 3, seed=4)[0]
    every, nodes = values_of(seat_view, 50, expert.NO_NODE_BUDGET)
    assert np.array_equal(values_of(seat_view, 50, nodes + 1)[0], every)
