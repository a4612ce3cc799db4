"""Trick play: turn order, following suit, breaking spades, trick winners."""

import pytest

from services.engine import Bid, EngineError, Play, apply, legal_moves, make_rules, new_game, turn
from services.engine.state import current_trick, spades_broken
from tests.engine.builders import cards, hand, playing_state

HANDS = (
    hand("2C", "AH", "3S"),
    hand("KC", "2H", "4S"),
    hand("5C", "QH", "AS"),
    hand("9C", "3H", "5D"),
)


def play(state, *codes):
    for card in cards(*codes):
        state = apply(state, turn(state), Play(card))
    return state


def test_play_goes_clockwise_from_the_leader():
    state = playing_state(HANDS, leader=1)
    assert turn(state) == 1
    state = play(state, "KC")
    assert turn(state) == 2


def test_card_not_in_hand():
    state = playing_state(HANDS, leader=1)
    with pytest.raises(EngineError) as err:
        apply(state, 1, Play(cards("AH")[0]))
    assert err.value.code == "card_not_in_hand"


def test_not_your_turn():
    state = playing_state(HANDS, leader=1)
    with pytest.raises(EngineError) as err:
        apply(state, 2, Play(cards("5C")[0]))
    assert err.value.code == "not_your_turn"


def test_wrong_phase_refuses_a_card_during_bidding():
    state = new_game(make_rules("partnership"), seed=3)
    with pytest.raises(EngineError) as err:
        apply(state, 1, Play(0))
    assert err.value.code == "wrong_phase"
    assert all(isinstance(m, Bid) for m in legal_moves(state, 1))


def test_must_follow_suit():
    state = play(playing_state(HANDS, leader=1), "KC")
    with pytest.raises(EngineError) as err:
        apply(state, 2, Play(cards("AS")[0]))
    assert err.value.code == "must_follow_suit"
    assert [m.card for m in legal_moves(state, 2)] == list(cards("5C"))


def test_a_void_seat_may_trump_and_the_spade_wins():
    void = playing_state((hand("2C", "5D", "3S"), HANDS[1], HANDS[2], HANDS[3]), leader=1)
    void = play(void, "2H", "QH", "3H")
    assert len(legal_moves(void, 0)) == 3
    after = apply(void, 0, Play(cards("3S")[0]))
    assert after.leader == 0
    assert after.tricks_won == (1, 0, 0, 0)


def test_spades_not_broken():
    state = playing_state(HANDS, leader=0)
    with pytest.raises(EngineError) as err:
        apply(state, 0, Play(cards("3S")[0]))
    assert err.value.code == "spades_not_broken"


def test_spades_may_be_led_when_broken_on_an_earlier_trick():
    hands = (hand("2C", "AH", "3S"), hand("KC", "2H", "4S"), hand("AS", "QH", "6S"), hand("9C", "3H", "5D"))
    state = play(playing_state(hands, leader=1), "KC", "AS", "9C", "2C")  # seat 2 trumps clubs
    assert spades_broken(state)
    assert turn(state) == 2
    state = play(state, "6S")
    assert current_trick(state) == cards("6S")


def test_spades_may_be_led_from_a_hand_of_only_spades():
    hands = (hand("2S", "3S", "4S"), HANDS[1], HANDS[2], HANDS[3])
    state = playing_state(hands, leader=0)
    assert not spades_broken(state)
    state = play(state, "2S")
    assert current_trick(state) == cards("2S")


def test_unbroken_spades_option_off_allows_leading_spades():
    state = playing_state(HANDS, leader=0, rules=make_rules("partnership", spades_must_be_broken=False))
    assert play(state, "3S").plays == cards("3S")


def test_a_spade_in_the_current_trick_does_not_break_spades_yet():
    hands = (hand("2C", "AH", "3S"), hand("KC", "2H", "4S"), hand("AS", "QH", "6S"), hand("9C", "3H", "5D"))
    state = play(playing_state(hands, leader=1), "KC", "AS")
    assert not spades_broken(state)


def test_the_trick_winner_leads_next_and_counts_a_trick():
    state = play(playing_state(HANDS, leader=1), "2H", "QH", "3H", "AH")
    assert state.leader == 0
    assert turn(state) == 0
    assert state.tricks_won == (1, 0, 0, 0)


def test_highest_card_of_led_suit_wins_when_no_spade():
    state = play(playing_state(HANDS, leader=1), "KC", "5C", "9C", "2C")
    assert state.leader == 1
