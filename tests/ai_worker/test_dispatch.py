"""decide(): only the view counts, every decision is legal, seeds reproduce."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from services.ai_worker import LEVELS, decide
from services.ai_worker.dispatch import level_module
from services.computers import HINT_LEVEL, LEVEL_NAMES
from services.engine import apply, make_rules, new_game, view
from services.engine.cards import cards_in
from services.engine.state import turn

from .helpers import move_of, play_randomly, random_positions


def swap_unseen(state, seat: int, rng: random.Random):
    """``state`` with one card of the same suit swapped between two other
    seats – a different deal that ``seat`` cannot tell apart."""
    a, b = [s for s in range(4) if s != seat][:2] if rng.random() < 0.5 else [s for s in range(4) if s != seat][1:]
    for suit in rng.sample(range(4), 4):
        suit_mask = ((1 << 13) - 1) << (13 * suit)
        in_a, in_b = list(cards_in(state.hands[a] & suit_mask)), list(cards_in(state.hands[b] & suit_mask))
        if in_a and in_b:
            ca, cb = rng.choice(in_a), rng.choice(in_b)
            hands = list(state.hands)
            hands[a] ^= (1 << ca) | (1 << cb)
            hands[b] ^= (1 << ca) | (1 << cb)
            return replace(state, hands=tuple(hands))
    return None


@pytest.mark.parametrize("level", LEVELS)
def test_a_decision_depends_only_on_what_the_seat_can_see(level):
    rng = random.Random(21)
    compared = 0
    for i in range(30):
        state = new_game(make_rules("partnership" if i % 2 else "individual"), seed=i)
        state = play_randomly(state, rng.randrange(0, 40), rng)
        seat = turn(state)
        other = swap_unseen(state, seat, rng)
        if other is None or other.hands == state.hands:
            continue
        assert view(other, seat) == view(state, seat)
        assert decide(view(other, seat), level, seed=i) == decide(view(state, seat), level, seed=i)
        compared += 1
    assert compared > 20


@pytest.mark.parametrize("level", LEVELS)
def test_every_decision_is_legal(level):
    for state, v in random_positions(80, seed=LEVELS.index(level)):
        decision = decide(v, level, seed=len(v["tricks"]))
        assert (decision.get("bid") if v["phase"] == "bidding" else decision["card"]) in v["legal"]
        apply(state, v["you"], move_of(decision))  # the engine accepts it


@pytest.mark.parametrize("preset", ["partnership", "individual"])
@pytest.mark.parametrize("level", LEVELS)
def test_whole_games_with_every_seat_at_one_level_stay_legal(level, preset):
    state = new_game(make_rules(preset), seed=77)
    for n in range(2 * 13 * 4 + 8):
        seat = turn(state)
        state = apply(state, seat, move_of(decide(view(state, seat), level, seed=n)))
    assert state.round == 3 or state.phase == "game_over"


@pytest.mark.parametrize("preset", ["partnership", "individual"])
def test_a_whole_game_of_mixed_levels_plays_to_its_end(preset):
    """Every level beside every other, to game over (a short game)."""
    for table in (("hard", "normal", "basic", "pro"), ("easy", "hard", "standard", "normal")):
        state = new_game(make_rules(preset, win_score=150), seed=11)
        n = 0
        while state.phase != "game_over":
            seat = turn(state)
            state = apply(state, seat, move_of(decide(view(state, seat), table[seat], seed=n)))
            n += 1
            assert n < 52 * 60
        assert state.winner is not None


def test_same_seed_same_decision_and_easy_cards_are_random():
    state = play_randomly(new_game(make_rules("individual"), seed=5), 4, random.Random(1))
    v = view(state, turn(state))
    for level in LEVELS:
        assert decide(v, level, 9) == decide(v, level, 9)
    cards = {decide(v, "easy", s)["card"] for s in range(200)}
    assert cards == set(v["legal"])


def test_refuses_a_view_whose_turn_it_is_not():
    state = new_game(make_rules("individual"), seed=5)
    not_turn = (turn(state) + 1) % 4
    with pytest.raises(ValueError):
        decide(view(state, not_turn), "standard", 1)
    with pytest.raises(ValueError):
        decide(view(state, turn(state)), "grandmaster", 1)


def test_every_catalogue_level_is_found_by_its_name():
    """dispatch routes by convention: level ``<name>`` is ``levels/<name>.py`` with ``move``."""
    assert LEVELS == LEVEL_NAMES
    for level in LEVEL_NAMES:
        assert callable(level_module(level).move), level
    assert callable(level_module(HINT_LEVEL).analysis)


def test_basic_answers_as_the_apis_fallback_in_any_phase():
    """basic is the API's fallback, which checks no phase: the worker gives the same answer."""
    state = play_randomly(new_game(make_rules("partnership"), seed=3), 6, random.Random(2))
    v = {**view(state, turn(state)), "phase": "unknown"}
    assert decide(v, "basic", 1) == decide({**v, "phase": "playing"}, "basic", 1)
    with pytest.raises(ValueError, match="no move in phase"):
        decide(v, "normal", 1)
