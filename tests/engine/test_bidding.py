"""Bidding rules and their error codes."""

from dataclasses import replace

import pytest

from services.engine import Bid, EngineError, apply, legal_moves, make_rules, new_game, turn
from services.engine.bidding import bid_error, legal_bids


def bid_in_turn(state, *bids):
    for b in bids:
        state = apply(state, turn(state), Bid(b))
    return state


def test_the_seat_left_of_the_dealer_bids_first():
    state = new_game(make_rules("partnership"), seed=3)
    assert turn(state) == 1
    state = bid_in_turn(state, 3)
    assert turn(state) == 2


def test_bids_are_locked_once_made():
    state = bid_in_turn(new_game(make_rules("partnership"), seed=3), 3)
    with pytest.raises(EngineError) as err:
        apply(state, 1, Bid(4))
    assert err.value.code == "not_your_turn"


@pytest.mark.parametrize("bid", [-1, 14, 99])
def test_bid_out_of_range(bid):
    state = new_game(make_rules("partnership"), seed=3)
    with pytest.raises(EngineError) as err:
        apply(state, 1, Bid(bid))
    assert err.value.code == "bid_out_of_range"


def test_nil_not_allowed_when_the_option_is_off():
    state = new_game(make_rules("partnership", nil=False), seed=3)
    with pytest.raises(EngineError) as err:
        apply(state, 1, Bid(0))
    assert err.value.code == "nil_not_allowed"
    assert 0 not in [m.tricks for m in legal_moves(state, 1)]


def test_nil_is_a_bid_of_zero_when_allowed():
    state = bid_in_turn(new_game(make_rules("partnership"), seed=3), 0)
    assert state.bids[1] == 0


def test_team_bid_too_low_refuses_the_second_partner():
    # Seed 001: if neither partner bids nil the team bid must be at least 4.
    state = bid_in_turn(new_game(make_rules("partnership"), seed=3), 1, 2)  # seats 1 and 2
    with pytest.raises(EngineError) as err:
        apply(state, 3, Bid(2))  # seat 3's partner (seat 1) bid 1: 1 + 2 < 4
    assert err.value.code == "team_bid_too_low"
    assert legal_bids(state.rules, state.bids, 3) == [0, *range(3, 13)]


def test_a_partner_nil_lifts_the_minimum():
    state = bid_in_turn(new_game(make_rules("partnership"), seed=3), 0, 2)
    assert bid_error(state.rules, state.bids, 3, 1) is None


def test_team_bid_too_high_refuses_the_second_partner():
    state = bid_in_turn(new_game(make_rules("partnership"), seed=3), 9, 2)
    with pytest.raises(EngineError) as err:
        apply(state, 3, Bid(5))  # 9 + 5 > 13
    assert err.value.code == "team_bid_too_high"
    assert max(legal_bids(state.rules, state.bids, 3)) == 4


def test_first_partner_keeps_a_legal_bid_for_the_second():
    rules = make_rules("partnership", nil=False)
    # With nil off, bidding 13 would leave the partner no legal bid.
    assert bid_error(rules, (None,) * 4, 1, 13) == "team_bid_too_high"
    assert bid_error(rules, (None,) * 4, 1, 12) is None


def test_individual_scoring_has_no_team_limits():
    rules = make_rules("individual")
    assert legal_bids(rules, (None, 1, None, None), 3) == list(range(14))


def test_the_last_bid_starts_play_with_the_first_bidder_leading():
    state = bid_in_turn(new_game(make_rules("partnership"), seed=3), 3, 3, 3, 3)
    assert state.phase == "playing"
    assert turn(state) == 1


def test_wrong_phase_refuses_a_bid_during_play():
    state = bid_in_turn(new_game(make_rules("partnership"), seed=3), 3, 3, 3, 3)
    with pytest.raises(EngineError) as err:
        apply(state, 1, Bid(3))
    assert err.value.code == "wrong_phase"


def test_game_over_refuses_every_move():
    state = replace(new_game(make_rules("partnership"), seed=3), phase="game_over", winner=(0, 2))
    with pytest.raises(EngineError) as err:
        apply(state, 1, Bid(3))
    assert err.value.code == "game_over"
    assert legal_moves(state, 1) == []
