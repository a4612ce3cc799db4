"""The numba kernel against the engine: same deal, same standard strategy,
same tricks; and the card sampler's guarantees."""

from __future__ import annotations

import random

import numpy as np
import pytest

from services.ai_worker import kernel
from services.ai_worker.position import position_of
from services.engine import Bid, Play, apply, make_rules, new_game, turn, view
from services.engine.cards import SPADE_MASK, cards_in
from services.engine.state import first_seat, replay_tricks

from .helpers import play_randomly
from .reference import reference_standard

RULES = [
    make_rules("partnership"),
    make_rules("individual"),
    make_rules("partnership", spades_must_be_broken=False, nil_tricks_count_for_team=False),
    make_rules("individual", spades_must_be_broken=False),
]


def engine_round(state, bids):
    """Bid ``bids`` then play the round out through the engine, every seat
    choosing with the pure-Python reference strategy on its view."""
    for _ in range(4):
        seat = turn(state)
        state = apply(state, seat, Bid(bids[seat]))
    while not state.history:
        seat = turn(state)
        state = apply(state, seat, Play(reference_standard(view(state, seat))))
    return state.history[-1]


def kernel_round(hands, bids, leader, rules):
    hands_arr = np.array(hands, dtype=np.int64)
    won = np.zeros(4, dtype=np.int64)
    kernel.playout(
        hands_arr, won, np.array(bids, dtype=np.int64), leader, np.zeros(4, dtype=np.int64), 0, False,
        rules.partnership, rules.spades_must_be_broken, rules.nil_tricks_count_for_team,
    )  # fmt: skip
    assert not hands_arr.any()
    return list(won)


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.scoring}-break{r.spades_must_be_broken}")
def test_full_round_playouts_match_the_engine(rules):
    rng = random.Random(7)
    for game in range(40):
        state = new_game(rules, seed=rng.randrange(10**9))
        hands = state.hands
        bids = [rng.choice([0, 1, 2, 3, 4, 5]) for _ in range(4)]
        if rules.partnership:  # keep the team bids legal
            for seat in (2, 3):
                if bids[seat] and bids[seat - 2] and bids[seat] + bids[seat - 2] < 4:
                    bids[seat] = 4 - bids[seat - 2]
        record = engine_round(state, bids)
        engine_won = [0, 0, 0, 0]
        for _, _, winner in replay_tricks(first_seat(1), record.plays):
            engine_won[winner] += 1
        assert kernel_round(hands, bids, first_seat(1), rules) == engine_won, f"game {game}"


def test_mid_round_playouts_match_the_engine():
    rng = random.Random(11)
    for i in range(40):
        rules = RULES[i % 4]
        state = play_randomly(new_game(rules, seed=rng.randrange(10**9)), 4, rng)  # bids only
        state = play_randomly(state, rng.randrange(1, 40), rng)
        if state.round != 1:
            continue
        seat = turn(state)
        p = position_of(view(state, seat))
        hands = np.array(state.hands, dtype=np.int64)
        won = p.won.copy()
        kernel.playout(
            hands, won, p.bids_known(), p.leader, p.trick, p.trick_n, p.broken,
            p.partnership, p.must_break, p.nil_counts,
        )  # fmt: skip
        while not state.history:
            mover = turn(state)
            state = apply(state, mover, Play(reference_standard(view(state, mover))))
        engine_won = [0, 0, 0, 0]
        for _, _, winner in replay_tricks(first_seat(1), state.history[-1].plays):
            engine_won[winner] += 1
        assert list(won) == engine_won


def test_samples_respect_sizes_unseen_cards_and_voids():
    rng_state = kernel.new_rng(np.uint64(3))
    unseen = np.array([c for c in range(13, 52)], dtype=np.int64)  # seat 0 holds the clubs
    sizes = np.array([13, 13, 13, 13], dtype=np.int64)
    voids = np.array([0, 0b0010, 0b1100, 0], dtype=np.int64)  # 1: no diamonds; 2: no hearts or spades
    buf = np.empty(52, dtype=np.int64)
    hands = np.empty(4, dtype=np.int64)
    seen_splits = set()
    for _ in range(300):
        assert kernel.sample_hands(0, (1 << 13) - 1, unseen, sizes, voids, rng_state, buf, hands)
        assert hands[0] == (1 << 13) - 1
        assert [int(h).bit_count() for h in hands] == [13, 13, 13, 13]
        assert int(hands[1] | hands[2] | hands[3]) == sum(1 << c for c in unseen)
        assert not int(hands[1]) & (((1 << 13) - 1) << 13)
        assert not int(hands[2]) & (((1 << 26) - 1) << 26)
        assert int(hands[2]) & SPADE_MASK == 0
        seen_splits.add(tuple(int(h) for h in hands))
    assert len(seen_splits) > 250


def test_samples_without_voids_are_roughly_uniform():
    rng_state = kernel.new_rng(np.uint64(5))
    unseen = np.arange(13, 52, dtype=np.int64)
    sizes = np.array([13, 13, 13, 13], dtype=np.int64)
    buf = np.empty(52, dtype=np.int64)
    hands = np.empty(4, dtype=np.int64)
    counts = np.zeros((4, 52))
    for _ in range(3000):
        kernel.sample_hands(0, (1 << 13) - 1, unseen, sizes, np.zeros(4, dtype=np.int64), rng_state, buf, hands)
        for seat in (1, 2, 3):
            for c in cards_in(int(hands[seat])):
                counts[seat, c] += 1
    share = counts[1:, 13:] / 3000
    assert np.all(np.abs(share - 1 / 3) < 0.05)


def test_estimated_bids_follow_the_hand():
    def mask(codes):
        from services.engine import parse_card

        return sum(1 << parse_card(c) for c in codes)

    strong = mask(["AS", "KS", "QS", "JS", "TS", "9S", "AH", "KH", "AD", "KD", "AC", "2C", "3C"])
    weak = mask(["2S", "3H", "4H", "5H", "6H", "2D", "3D", "4D", "5D", "2C", "3C", "4C", "6C"])
    assert kernel.estimate_bid(strong) >= 9
    assert kernel.estimate_bid(weak) == 1
