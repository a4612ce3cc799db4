"""Options, presets and refused combinations."""

import pytest

from services.engine import OPTION_DOCS, PRESETS, RuleError, Rules, make_rules
from services.engine.rules import OPTION_SEEDS


def test_partnership_preset_follows_seeds_001_and_002():
    rules = PRESETS["partnership"]
    assert (rules.win_score, rules.lose_score, rules.set_penalty) == (500, -200, "negative")
    assert (rules.bag_limit, rules.bag_penalty, rules.min_team_bid, rules.max_team_bid) == (10, 100, 4, 13)
    assert rules.nil and rules.nil_value == 100 and rules.spades_must_be_broken and rules.nil_tricks_count_for_team


def test_individual_preset_follows_seeds_000_and_003():
    rules = PRESETS["individual"]
    assert rules.sides == 4
    assert (rules.win_score, rules.lose_score, rules.set_penalty, rules.bag_penalty) == (500, None, "zero", 0)
    assert rules.min_team_bid == 0


def test_every_option_is_documented_with_its_seed():
    names = set(Rules.__dataclass_fields__)
    assert set(OPTION_DOCS) == names
    assert set(OPTION_SEEDS) == names


def test_overrides_apply_on_top_of_a_preset():
    rules = make_rules("individual", win_score=300, bag_penalty=100)
    assert rules.win_score == 300 and rules.bag_penalty == 100 and rules.scoring == "individual"


@pytest.mark.parametrize(
    ("overrides", "option"),
    [
        ({"win_score": 0}, "win_score"),
        ({"win_score": "500"}, "win_score"),
        ({"win_score": True}, "win_score"),
        ({"lose_score": 600}, "lose_score"),
        ({"set_penalty": "double"}, "set_penalty"),
        ({"bag_limit": 0}, "bag_limit"),
        ({"bag_penalty": -5}, "bag_penalty"),
        ({"nil": "yes"}, "nil"),
        ({"min_team_bid": 14}, "min_team_bid"),
        ({"min_team_bid": 6, "max_team_bid": 5}, "max_team_bid"),
        ({"scoring": "cutthroat"}, "scoring"),
        ({"jokers": True}, "jokers"),
    ],
)
def test_bad_options_are_refused_naming_the_option(overrides, option):
    with pytest.raises(RuleError) as err:
        make_rules("partnership", **overrides)
    assert err.value.option == option


def test_team_options_are_refused_in_individual_play():
    with pytest.raises(RuleError) as err:
        make_rules("individual", min_team_bid=4)
    assert err.value.option == "min_team_bid"
    with pytest.raises(RuleError) as err:
        make_rules("individual", max_team_bid=10)
    assert err.value.option == "max_team_bid"


def test_unknown_preset_is_refused():
    with pytest.raises(RuleError) as err:
        make_rules("suicide")
    assert err.value.option == "preset"


def test_seats_and_sides():
    partnership, individual = PRESETS["partnership"], PRESETS["individual"]
    assert [partnership.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert partnership.seats_of(1) == (1, 3)
    assert [individual.side_of(s) for s in range(4)] == [0, 1, 2, 3]
