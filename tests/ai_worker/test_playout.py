"""Standard playouts (services.ai_worker.playout) against the engine: same
deal, same standard strategy, same tricks."""

from __future__ import annotations

import random

import pytest

from services.ai_worker.playout import playout
from services.ai_worker.position import position_of
from services.ai_worker.records import Trick, new_table, rules_of, trick_of
from services.engine import Bid, Play, apply, make_rules, new_game, turn, view
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
    table = new_table()
    table[0]["hands"], table[0]["bids"] = hands, bids
    playout(table, Trick(0, leader, False), kernel_rules(rules))
    assert not table[0]["hands"].any()
    return list(table[0]["won"])


def kernel_rules(rules):
    """The kernel's Rules for engine rules (the figures playouts read; scoring ones unused)."""
    return rules_of(position_of(view(new_game(rules, seed=1), 0))[0])


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
        p = position_of(view(state, seat))[0]
        table = new_table()
        for field in ("won", "bids", "trick"):
            table[0][field] = p[field]
        table[0]["hands"] = state.hands
        playout(table, trick_of(p), rules_of(p))
        won = table[0]["won"]
        while not state.history:
            mover = turn(state)
            state = apply(state, mover, Play(reference_standard(view(state, mover))))
        engine_won = [0, 0, 0, 0]
        for _, _, winner in replay_tricks(first_seat(1), state.history[-1].plays):
            engine_won[winner] += 1
        assert list(won) == engine_won
