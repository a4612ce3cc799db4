"""Worked scoring examples for both presets, taken from the seed texts."""

from dataclasses import replace

from services.engine import make_rules, new_game
from services.engine.game import finish_round
from services.engine.scoring import game_winner, score_round
from services.engine.state import dealer_of, first_seat

PARTNERSHIP = make_rules("partnership")
INDIVIDUAL = make_rules("individual")
NO_BAGS = (0, 0)


# --- partnership (seeds 001, 002) -------------------------------------------


def test_made_contract_scores_ten_a_trick_plus_one_a_bag():
    # Team 0 bids 4 + 3 = 7 and takes 5 + 4 = 9: 70 + 2 bags.
    result = score_round(PARTNERSHIP, (4, 2, 3, 2), (5, 2, 4, 2), NO_BAGS)
    assert result.points[0] == 72
    assert result.bags[0] == 2


def test_set_contract_loses_ten_a_contract_trick():
    # Team 1 bids 2 + 2 = 4 and takes 2 + 1 = 3: set, -40.
    result = score_round(PARTNERSHIP, (4, 2, 3, 2), (5, 2, 5, 1), NO_BAGS)
    assert result.points[1] == -40
    assert result.bags[1] == 0


def test_exact_contract_scores_no_bags():
    result = score_round(PARTNERSHIP, (4, 3, 3, 3), (4, 3, 3, 3), NO_BAGS)
    assert result.points == (70, 60)
    assert result.bags == (0, 0)


def test_nil_made_with_partners_contract_made():
    # Seat 0 nil takes nothing (+100); seat 2 bids 4 and takes 5 (41, 1 bag).
    result = score_round(PARTNERSHIP, (0, 4, 4, 4), (0, 4, 5, 4), NO_BAGS)
    assert result.points[0] == 141
    assert result.bags[0] == 1


def test_nil_failed_tricks_count_for_the_team():
    # Seat 0 nil takes 2 (-100); seat 2 bids 4 and takes 3: the nil bidder's
    # tricks count for the team (canonical rule, seed 002), 5 >= 4: +41.
    result = score_round(PARTNERSHIP, (0, 4, 4, 4), (2, 4, 3, 4), NO_BAGS)
    assert result.points[0] == -59
    assert result.bags[0] == 1


def test_nil_failed_tricks_not_counted_when_the_option_is_off():
    rules = make_rules("partnership", nil_tricks_count_for_team=False)
    result = score_round(rules, (0, 4, 4, 4), (2, 4, 3, 4), NO_BAGS)
    assert result.points[0] == -140  # -100 nil, partner set at 4 with 3


def test_double_nil_scores_each_nil_and_bags_any_trick():
    result = score_round(PARTNERSHIP, (0, 6, 0, 5), (0, 7, 1, 5), NO_BAGS)
    assert result.points[0] == 100 - 100 + 1
    assert result.bags[0] == 1


def test_ten_bags_cost_100_and_the_remainder_carries():
    # Team 0 had 8 bags and takes 5 more: 13 bags -> -100, 3 bags remain.
    result = score_round(PARTNERSHIP, (2, 3, 2, 3), (4, 3, 5, 1), (8, 0))
    assert result.points[0] == 40 + 5 - 100
    assert result.bag_penalties == (1, 0)
    assert result.bags[0] == 3


def test_bag_penalty_zero_turns_it_off():
    rules = make_rules("partnership", bag_penalty=0)
    result = score_round(rules, (2, 3, 2, 3), (4, 3, 5, 1), (8, 0))
    assert result.points[0] == 45
    assert result.bags[0] == 13


def test_reaching_500_wins():
    assert game_winner(PARTNERSHIP, (510, 320)) == 0


def test_falling_to_minus_200_ends_the_game_and_the_higher_score_wins():
    assert game_winner(PARTNERSHIP, (-200, 150)) == 1
    assert game_winner(PARTNERSHIP, (-199, 150)) is None


def test_a_tie_at_the_top_plays_another_round():
    assert game_winner(PARTNERSHIP, (520, 520)) is None


def test_both_over_500_the_higher_wins():
    assert game_winner(PARTNERSHIP, (505, 530)) == 1


# --- individual (seeds 000, 003) --------------------------------------------


def test_individual_made_bid_scores_alone():
    result = score_round(INDIVIDUAL, (3, 2, 4, 1), (5, 2, 4, 2), (0,) * 4)
    assert result.points == (32, 20, 40, 11)
    assert result.bags == (2, 0, 0, 1)


def test_individual_set_scores_zero_not_negative():
    # Seed 000: "If a player does not take at least the number of tricks that
    # they bid then they score zero points."
    result = score_round(INDIVIDUAL, (5, 2, 4, 1), (3, 4, 4, 2), (0,) * 4)
    assert result.points[0] == 0


def test_individual_nil_made_and_failed():
    result = score_round(INDIVIDUAL, (0, 0, 6, 5), (0, 1, 6, 6), (0,) * 4)
    assert result.points[0] == 100
    assert result.points[1] == -100


def test_individual_bag_penalty_is_optional_and_off_by_default():
    assert INDIVIDUAL.bag_penalty == 0
    assert score_round(INDIVIDUAL, (1, 1, 1, 1), (6, 3, 2, 2), (9, 0, 0, 0)).points[0] == 15
    rules = make_rules("individual", bag_penalty=100)
    result = score_round(rules, (1, 1, 1, 1), (6, 3, 2, 2), (9, 0, 0, 0))
    assert result.points[0] == 15 - 100
    assert result.bags[0] == 4


def test_individual_first_to_the_winning_score_wins():
    assert game_winner(INDIVIDUAL, (120, 505, 300, 480)) == 1
    assert game_winner(INDIVIDUAL, (505, 505, 300, 480)) is None
    assert game_winner(INDIVIDUAL, (-900, 120, 300, 480)) is None  # no lose score


def test_winning_score_is_configurable():
    assert game_winner(make_rules("individual", win_score=200), (120, 205, 0, 0)) == 1


# --- rounds end through the game flow ---------------------------------------


def _end_of_round(rules, bids, tricks, scores, bags, round_no=1):
    state = new_game(rules, seed=11)
    return replace(
        state,
        round=round_no,
        phase="playing",
        bids=bids,
        tricks_won=tricks,
        plays=tuple(range(52)),
        scores=scores,
        bags=bags,
    )


def test_finishing_a_round_records_it_and_deals_the_next():
    state = finish_round(_end_of_round(PARTNERSHIP, (3, 3, 3, 3), (4, 3, 3, 3), (0, 0), (0, 0)))
    assert state.round == 2
    assert state.phase == "bidding"
    assert dealer_of(2) == 1 and first_seat(2) == 2
    assert state.scores == (61, 60)  # team 0: bid 3 + 3, took 4 + 3
    assert state.history[0].points == (61, 60)
    assert state.history[0].scores == (61, 60)
    assert all(h.bit_count() == 13 for h in state.hands)


def test_minus_200_ends_the_game_through_the_flow():
    state = finish_round(_end_of_round(PARTNERSHIP, (4, 1, 3, 1), (2, 5, 3, 3), (-150, 100), (0, 0)))
    assert state.phase == "game_over"
    assert state.scores == (-220, 100 + 20 + 6)
    assert state.winner == (1, 3)


def test_tied_top_scores_play_another_round():
    state = finish_round(_end_of_round(PARTNERSHIP, (4, 4, 3, 2), (4, 4, 3, 2), (440, 450), (0, 0)))
    assert state.scores == (510, 510)
    assert state.phase == "bidding"
    assert state.round == 2


def test_individual_winner_is_one_seat():
    state = finish_round(_end_of_round(INDIVIDUAL, (3, 3, 3, 4), (3, 3, 3, 4), (480, 0, 0, 0), (0,) * 4))
    assert state.phase == "game_over"
    assert state.winner == (0,)
