"""The limit: expert's search on the true deal (benchmarks.limit)."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks import limit
from benchmarks.tournament import PLAYERS, move_of, play
from services.ai_worker.levels import expert
from services.ai_worker.levels.dd import new_memo
from services.ai_worker.position import position_of
from services.ai_worker.true_deal import exact_values
from services.engine import STANDARD_DECK, apply, legal_moves, make_rules, new_game, turn, view

from ..ai_worker.helpers import playing_position


def second_hand(fill_seed: int):
    """Seat 0 second to play to a led 5H with KH 3H 2C, three tricks left, its side's contract made and the
    other side's needing two of them; the other hands dealt by ``fill_seed``."""
    return playing_position(
        ["KH", "3H", "2C"], me=0, trick=("5H",), bids=(3, 3, 3, 3), won=(3, 2, 3, 2),
        rules=make_rules("partnership"), spades_broken=True, fill_seed=fill_seed,
    )  # fmt: skip


def true_best(state) -> str:
    """The one legal card of the seat to move that the true deal's exact values put first."""
    seat_view = view(state, turn(state))
    cards = [STANDARD_DECK.parse(code) for code in seat_view["legal"]]
    values = exact_values(position_of(seat_view), sum(1 << c for c in cards), np.array(state.hands), *new_memo())
    ranked = sorted(cards, key=lambda c: -values[c])
    assert values[ranked[0]] > values[ranked[1]]  # a best card, not a tie
    return seat_view["legal"][cards.index(ranked[0])]


def test_it_plays_the_card_only_the_true_deal_justifies():
    low, high = second_hand(0), second_hand(35)
    seat_view = view(low, 0)
    assert view(high, 0) == seat_view  # the seat sees the same: only the hidden hands differ
    assert (true_best(low), true_best(high)) == ("3H", "KH")
    assert limit.decide(low, seat_view, 1) == {"card": "3H"}
    assert limit.decide(high, seat_view, 1) == {"card": "KH"}
    assert limit.decide_play(low, seat_view, 1) == {"card": "3H"}
    assert limit.decide_play(high, seat_view, 1) == {"card": "KH"}


def test_limit_play_bids_as_expert_does_from_its_view():
    state = new_game(make_rules("partnership"), seed=3)
    seat_view = view(state, turn(state), history=False)
    assert limit.decide_play(state, seat_view, 9) == expert.move(seat_view, 9)


def test_its_world_is_the_true_deal_with_the_cards_set_aside_still_their_givers():
    state = second_hand(0)
    assert limit.world(state).tolist() == [list(state.hands)]
    state = new_game(make_rules("house", blind_margin=0, suicide=True), seed=1)
    while not any(state.passes):  # every seat looks and bids its first bid, then the first pass is set aside
        seat = turn(state)
        state = apply(state, seat, legal_moves(state, seat)[0])
    assert state.phase == "passing"
    world = limit.world(state)[0].tolist()
    assert world == [h | p for h, p in zip(state.hands, state.passes, strict=True)] != list(state.hands)
    assert {hand.bit_count() for hand in world} == {13}


@pytest.mark.parametrize(
    ("preset", "options"),
    [("partnership", {}), ("individual", {}), ("house", {"blind_margin": 0, "suicide": True})],
)
def test_every_move_is_legal_over_random_rounds(preset: str, options: dict):
    rules = make_rules(preset, **options)
    phases = set()
    for seed in (1, 2):
        state = new_game(rules, seed=seed)
        move_no = 0
        while not state.history:
            seat = turn(state)
            phases.add(state.phase)
            move = move_of(limit.decide(state, view(state, seat, history=False), move_no), rules.deck)
            assert move in legal_moves(state, seat)
            state = apply(state, seat, move)
            move_no += 1
    assert {"bidding", "playing"} <= phases
    if preset == "house":
        assert "passing" in phases


def test_the_tournament_seats_it_with_the_whole_state():
    assert {"limit", "limit-play"} <= set(PLAYERS)
    played = play(make_rules("partnership"), 5, ("limit", "hard", "limit-play", "hard"), lambda n: n, 1)
    assert len(played.rounds) == 1
