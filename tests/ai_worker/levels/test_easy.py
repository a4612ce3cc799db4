"""Easy (services.ai_worker.levels.easy): random bids in 1..4 and random legal cards."""

from __future__ import annotations

from services.ai_worker import decide
from services.engine import Bid, apply, make_rules, new_game, turn, view

from ..helpers import bidding_view


def test_easy_bids_uniformly_in_one_to_four():
    _, v = bidding_view(None, preset="individual")
    bids = [decide(v, "easy", seed=s)["bid"] for s in range(400)]
    assert set(bids) == {1, 2, 3, 4}
    assert all(60 < bids.count(b) < 140 for b in (1, 2, 3, 4))


def test_easy_falls_back_to_any_legal_bid_when_none_of_one_to_four_is_legal():
    state = new_game(make_rules("partnership", min_team_bid=10), seed=3)
    state = apply(state, turn(state), Bid(1))  # seat 1
    state = apply(state, turn(state), Bid(2))  # seat 2
    state = apply(state, turn(state), Bid(9))  # seat 3, partner of seat 1
    v = view(state, turn(state))  # seat 0, partner of seat 2 (bid 2): needs 8+ or nil
    assert not set(v["legal"]) & {1, 2, 3, 4}
    bids = {decide(v, "easy", seed=s)["bid"] for s in range(200)}
    assert bids == set(v["legal"])
