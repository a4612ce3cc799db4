"""Monte Carlo bidding (standard and pro) and easy bidding."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from services.ai_worker import decide, kernel
from services.ai_worker.position import position_of
from services.ai_worker.strategies import bid_averages, choose_bid, nearest_legal
from services.engine import Bid, apply, make_rules, new_game, turn, view

from .helpers import mask


def bidding_view(hand_codes: list[str] | None = None, preset: str = "individual", seed: int = 4, **rules):
    """The view of the first bidder (seat 1), optionally with its hand swapped for ``hand_codes``."""
    state = new_game(make_rules(preset, **rules), seed=seed)
    if hand_codes is not None:
        mine = mask(*hand_codes)
        rest = [c for c in range(52) if not mine >> c & 1]
        hands = [sum(1 << c for c in rest[i * 13 : i * 13 + 13]) for i in range(3)]
        hands.insert(1, mine)
        state = replace(state, hands=tuple(hands))
    return state, view(state, turn(state))


def naive_bid_averages(p, deals: int, seed: int) -> np.ndarray:
    """bid_tricks without its reuse shortcut: every bid of every deal played out."""
    rng = kernel.new_rng(np.uint64(seed))
    buf = np.empty(52, dtype=np.int64)
    dealt = np.empty(4, dtype=np.int64)
    totals = np.zeros(14)
    for _ in range(deals):
        kernel.sample_hands(p.seat, p.hand, p.unseen, p.sizes, p.void_suits, rng, buf, dealt)
        bids = np.array([b if b >= 0 else kernel.estimate_bid(dealt[s]) for s, b in enumerate(p.bids)], dtype=np.int64)
        for bid in range(14):
            bids[p.seat] = bid
            hands = dealt.copy()
            won = np.zeros(4, dtype=np.int64)
            kernel.playout(
                hands, won, bids, p.leader, np.zeros(4, dtype=np.int64), 0, False,
                p.partnership, p.must_break, p.nil_counts,
            )  # fmt: skip
            totals[bid] += won[p.seat]
    return totals / deals


@pytest.mark.parametrize("preset", ["individual", "partnership"])
def test_bid_averages_equal_playing_every_bid_out(preset):
    for seed in (1, 2, 3):
        state = new_game(make_rules(preset), seed=seed)
        state = apply(state, turn(state), Bid(3))  # a known bid for one seat, estimates for the others
        p = position_of(view(state, turn(state)))
        assert np.allclose(bid_averages(p, seed, deals=30), naive_bid_averages(p, 30, seed))


def test_choose_bid_takes_the_highest_bid_strictly_below_its_average():
    averages = np.array([0.4, 2.5, 2.6, 3.2, 3.9, 4.0, 4.0, 4.1, 4.1, 4.1, 4.1, 4.1, 4.1, 4.1])
    assert choose_bid(averages) == 3
    assert choose_bid(np.array([0.2] + [1.0] * 13)) == 0  # 1.0 is not above 1: nil
    assert choose_bid(np.array([0.0] + [0.5] * 13)) == 0


def test_nearest_legal_bid_prefers_the_lower_on_a_tie():
    assert nearest_legal(0, [1, 2, 3]) == 1
    assert nearest_legal(2, [0, 3, 4, 5]) == 3
    assert nearest_legal(2, [1, 3]) == 1
    assert nearest_legal(5, [0, 5, 9]) == 5


def test_a_strong_hand_bids_high_and_a_weak_hand_low():
    strong = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "AH", "KH", "AD", "KD", "AC", "KC"]
    weak = ["2S", "3H", "4H", "5H", "6H", "2D", "3D", "4D", "5D", "2C", "3C", "4C", "6C"]
    for level in ("standard", "pro"):
        assert decide(bidding_view(strong)[1], level, seed=1)["bid"] >= 10
        assert decide(bidding_view(weak)[1], level, seed=1)["bid"] <= 1


def test_weak_hand_bids_nil_unless_nil_is_off():
    weak = ["2S", "3H", "4H", "5H", "6H", "2D", "3D", "4D", "5D", "2C", "3C", "4C", "6C"]
    assert decide(bidding_view(weak)[1], "standard", seed=2)["bid"] == 0
    assert decide(bidding_view(weak, nil=False)[1], "standard", seed=2)["bid"] == 1


def test_monte_carlo_bid_is_reproducible_and_legal_under_the_team_minimum():
    state = new_game(make_rules("partnership", min_team_bid=10), seed=9)
    state = apply(state, turn(state), Bid(1))  # seat 1
    state = apply(state, turn(state), Bid(1))  # seat 2
    seat = turn(state)  # seat 3, partner of seat 1: needs 9+ or nil
    v = view(state, seat)
    for level in ("standard", "pro"):
        first = decide(v, level, seed=5)
        assert first == decide(v, level, seed=5)
        assert first["bid"] in v["legal"]


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
