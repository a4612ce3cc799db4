"""The ``deals`` house rule: a game of a fixed number of deals, as the tables of a duplicate event play."""

from __future__ import annotations

import random

import pytest

from services.engine import RuleError, apply, legal_moves, make_rules, new_game, turn
from services.engine.dealing import new_secret
from services.engine.game import dealt
from services.engine.scoring import game_winner
from services.engine.state import GameState


def play_out(state: GameState, rng: random.Random, rounds: int | None = None) -> tuple[GameState, list[tuple]]:
    """Random legal moves until the game ends (or ``rounds`` have been dealt); each round's deal as it began."""
    deals = [dealt(state)]
    while state.phase != "game_over" and (rounds is None or len(state.history) < rounds):
        seat = turn(state)
        before = len(state.history)
        state = apply(state, seat, rng.choice(legal_moves(state, seat)))
        if len(state.history) > before and state.phase != "game_over":
            deals.append(dealt(state))
    return state, deals


def test_a_game_of_two_deals_ends_after_the_second_unless_tied():
    rules = make_rules("partnership", deals=2)
    for n in range(20):
        state, _ = play_out(new_game(rules, new_secret()), random.Random(n))
        assert state.phase == "game_over"
        played = len(state.history)
        if played > 2:  # a tie for the highest score after the second deal plays on
            assert state.history[1].scores[0] == state.history[1].scores[1]
        else:
            assert played == 2


def test_the_score_limits_end_nothing_while_deals_are_counted():
    rules = make_rules("partnership", deals=3, win_score=1, lose_score=0)
    assert game_winner(rules, (50, -30), rounds_played=2) is None
    assert game_winner(rules, (50, -30), rounds_played=3) == 0
    assert game_winner(rules, (40, 40), rounds_played=3) is None  # a tie plays on
    assert game_winner(make_rules("partnership", win_score=1, lose_score=0), (50, -30), rounds_played=1) == 0


def test_games_from_the_same_secret_deal_the_same_cards_round_by_round():
    """However differently two tables play, the same secret deals both the same hands each round."""
    secret = new_secret()
    rules = make_rules("partnership", deals=2)
    _, first = play_out(new_game(rules, secret), random.Random(1), rounds=2)
    _, second = play_out(new_game(rules, secret), random.Random(2), rounds=2)
    assert first[:2] == second[:2]
    assert first[0] != first[1]
    _, other = play_out(new_game(rules, new_secret()), random.Random(1), rounds=1)
    assert other[0] != first[0]


@pytest.mark.parametrize("value", [-1, 101])
def test_deals_out_of_range_is_refused(value):
    with pytest.raises(RuleError) as refused:
        make_rules("partnership", deals=value)
    assert refused.value.option == "deals"
