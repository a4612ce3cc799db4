"""Options, presets and refused combinations."""

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from services.engine import OPTION_DOCS, PRESETS, RuleError, Rules, make_rules
from services.engine.bidding import legal_bids, partner_of
from services.engine.rules import OPTION_SEEDS, rules_from_dict

from .strategies_util import rules_overrides


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
        ({"lose_score": 1}, "lose_score"),
        ({"set_penalty": "double"}, "set_penalty"),
        ({"bag_limit": 0}, "bag_limit"),
        ({"bag_penalty": -5}, "bag_penalty"),
        ({"nil": "yes"}, "nil"),
        ({"min_team_bid": 14}, "min_team_bid"),
        ({"min_team_bid": 6, "max_team_bid": 5}, "max_team_bid"),
        ({"max_team_bid": 3}, "max_team_bid"),  # below the preset's minimum team bid, 4
        ({"nil": False, "min_team_bid": 0, "max_team_bid": 1}, "max_team_bid"),
        ({"scoring": "cutthroat"}, "scoring"),
        ({"big_book": True}, "big_book"),
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


def test_max_team_bid_below_two_without_nil_is_refused_with_a_reason():
    # Without nil each partner bids at least 1: a team limit of 1 left the first partner no legal bid.
    with pytest.raises(RuleError) as err:
        make_rules("partnership", nil=False, min_team_bid=0, max_team_bid=1)
    assert err.value.option == "max_team_bid" and "nil is off" in err.value.message
    assert make_rules("partnership", nil=False, min_team_bid=0, max_team_bid=2).max_team_bid == 2
    assert make_rules("partnership", nil=True, min_team_bid=0, max_team_bid=1).max_team_bid == 1


def test_individual_scoring_on_the_partnership_preset_drops_the_team_limits():
    rules = make_rules("partnership", scoring="individual")
    assert (rules.min_team_bid, rules.max_team_bid) == (0, 13)
    with pytest.raises(RuleError) as err:
        make_rules("partnership", scoring="individual", max_team_bid=1)
    assert err.value.option == "max_team_bid"


def test_stored_rules_are_validated_as_they_load():
    stored = PRESETS["partnership"].to_dict()
    assert rules_from_dict(stored) == PRESETS["partnership"]
    with pytest.raises(RuleError):
        rules_from_dict({**stored, "lose_score": 100})
    with pytest.raises(RuleError):
        rules_from_dict({**stored, "bag_limit": 0})


# The options bidding depends on, in range (other options do not change a legal bid),
# with small team limits often: that is where a team can run out of bids.
BIDDING_RULES = st.fixed_dictionaries(
    {},
    optional={
        "preset": st.sampled_from(sorted(PRESETS)),
        "scoring": st.sampled_from(["partnership", "individual"]),
        "nil": st.booleans(),
        "min_team_bid": st.one_of(st.integers(0, 3), st.integers(0, 13)),
        "max_team_bid": st.one_of(st.integers(1, 4), st.integers(1, 26)),
    },
)


@settings(max_examples=300, deadline=None)
@given(BIDDING_RULES, st.integers(0, 3))
@example({"nil": False, "min_team_bid": 0, "max_team_bid": 1}, 1)  # the game that got stuck
def test_every_seat_of_valid_rules_always_has_a_legal_bid(request, first):
    """For any rules make_rules accepts, whoever bids first and whatever legal bids come
    before, the seat to bid has a legal bid.  A bid's legality depends only on the
    partner's bid (partnership) or on nothing (individual), so checking each seat
    first and then its partner after every legal first bid covers every bidding order."""
    preset, overrides = rules_overrides(request)
    try:
        rules = make_rules(preset, **overrides)
    except RuleError:
        assume(False)
    nobody = (None,) * 4
    opening = legal_bids(rules, nobody, first)
    assert opening, f"{rules}: seat {first} has no legal bid"
    partner = partner_of(first)
    for bid in opening:
        bids = tuple(bid if seat == first else None for seat in range(4))
        assert legal_bids(rules, bids, partner), f"{rules}: after {bid}, seat {partner} has no legal bid"
