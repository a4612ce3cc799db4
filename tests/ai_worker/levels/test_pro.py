"""Pro play: per-card trick probabilities from sampled distributions."""

from __future__ import annotations

import pytest

from services.ai_worker import decide
from services.ai_worker.levels.pro import SAMPLES_PER_PLAY, pro_win_counts
from services.ai_worker.position import position_of
from services.engine import make_rules, parse_card, view
from services.engine.cards import lowest_by_rank

from ..helpers import playing_position, random_positions

CLUBS_DIAMONDS = ["2C", "3C", "4C", "5C", "6C", "2D", "3D", "4D", "5D", "6D"]
MADE = {"bids": (2, 3, 3, 3), "won": (2, 0, 0, 0)}


def pro(state, seed: int = 0) -> str:
    v = view(state, 0)
    card = decide(v, "pro", seed)["card"]
    assert card in v["legal"]
    return card


def test_last_to_play_unmade_takes_the_trick_with_a_sure_winner():
    state = playing_position(["AH", "3H", "4H", *CLUBS_DIAMONDS], trick=("5H", "KH", "2H"))
    assert pro(state) == "AH"


def test_last_to_play_made_ducks_with_the_lowest_sure_loser():
    state = playing_position(["AH", "4H", "3H", *CLUBS_DIAMONDS], trick=("5H", "KH", "2H"), **MADE)
    assert pro(state) == "3H"


def test_no_card_above_half_plays_the_least_likely_and_lowest_card():
    state = playing_position(["QH", "4H", "3H", *CLUBS_DIAMONDS], trick=("5H", "AH", "2H"))
    assert pro(state) == "3H"


def test_second_seat_unmade_plays_the_card_most_likely_to_win():
    # seat 0 is second to play after 7C; AC can only lose to a ruff, the others are likely to lose
    state = playing_position(
        ["AC", "8C", "2C", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD"], trick=("7C",)
    )
    assert pro(state) == "AC"


def test_second_seat_made_plays_the_card_least_likely_to_win():
    hand = ["AC", "8C", "2C", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD"]
    state = playing_position(hand, trick=("7C",), **MADE)
    assert pro(state) == "2C"


def test_pro_and_standard_can_differ():
    """Leading unmade after AC and KC have gone: standard leads its highest
    card, KH (the unseen AH will beat it); pro leads QC, now the boss club."""
    hand = ["KH", "QC", "2H", "3H", "4H", "2D", "3D", "4D", "5D", "6D", "7D", "8D"]
    state = playing_position(hand, shown=("AC", "KC", "JC", "TC"))
    assert decide(view(state, 0), "standard", 0)["card"] == "KH"
    assert pro(state) == "QC"


@pytest.mark.parametrize("seed", [1, 2])
def test_decisions_follow_the_rule_on_the_sampled_probabilities(seed):
    checked = 0
    for _state, v in random_positions(60, seed):
        if v["phase"] != "playing" or len(v["legal"]) < 2:
            continue
        p = position_of(v)
        legal = [parse_card(c) for c in v["legal"]]
        wins = pro_win_counts(p, sum(1 << c for c in legal), seed=seed)
        assert all(0 <= wins[c] <= SAMPLES_PER_PLAY for c in legal)
        assert not any(wins[c] for c in range(52) if c not in legal)
        rules = v["rules"]
        seat = v["you"]
        bid, won = v["bids"][seat], v["tricks_won"][seat]
        partner = (seat + 2) % 4
        if rules["scoring"] == "partnership" and bid != 0:
            counts = v["bids"][partner] != 0 or rules["nil_tricks_count_for_team"]
            won += v["tricks_won"][partner] if counts else 0
            bid += v["bids"][partner]
        made = bid == 0 or won >= bid
        top = max(wins[c] for c in legal)
        target = top if not made and top * 2 > SAMPLES_PER_PLAY else min(wins[c] for c in legal)
        expected = lowest_by_rank(sum(1 << c for c in legal if wins[c] == target))
        assert parse_card(decide(v, "pro", seed)["card"]) == expected
        checked += 1
    assert checked > 20


def test_partnership_counts_a_partner_winning_as_taking_the_trick():
    # partner (seat 2) has played the boss AH; seat 0 is last: every card "takes" the trick for the team
    hand = ["KH", "3H", "4H", *CLUBS_DIAMONDS]
    state = playing_position(hand, trick=("5H", "AH", "2H"), rules=make_rules("partnership"), bids=(4, 3, 4, 3))
    p = position_of(view(state, 0))
    wins = pro_win_counts(p, sum(1 << parse_card(c) for c in ("KH", "3H", "4H")), seed=0)
    assert all(wins[parse_card(c)] == SAMPLES_PER_PLAY for c in ("KH", "3H", "4H"))
    assert pro(state) == "3H"
