"""The standard playing strategy on hand-built positions (seed 000 rules as
interpreted in services.ai_worker.strategies)."""

from __future__ import annotations

import pytest

from services.ai_worker import decide
from services.engine import card_code, make_rules, view

from .helpers import playing_position
from .reference import reference_standard

CLUBS_DIAMONDS = ["2C", "3C", "4C", "5C", "6C", "2D", "3D", "4D", "5D", "6D"]


def standard(state, me: int = 0) -> str:
    v = view(state, me)
    card = decide(v, "standard", seed=0)["card"]
    assert card in v["legal"]
    assert card == card_code(reference_standard(v))
    return card


def test_unmade_plays_its_highest_card_of_the_led_suit_when_it_can_win():
    state = playing_position(["AH", "9H", "3H", *CLUBS_DIAMONDS], trick=("5H",))
    assert standard(state) == "AH"


def test_unmade_plays_highest_even_when_a_lower_card_would_also_win():
    state = playing_position(["KH", "QH", "3H", *CLUBS_DIAMONDS], trick=("5H",))
    assert standard(state) == "KH"


def test_unmade_plays_its_lowest_legal_card_when_it_cannot_win():
    state = playing_position(["QH", "9H", "3H", *CLUBS_DIAMONDS], trick=("KH", "AH"))
    assert standard(state) == "3H"


def test_unmade_and_void_trumps_with_the_lowest_winning_spade():
    state = playing_position(["4S", "9S", "KS", *CLUBS_DIAMONDS], trick=("5H",))
    assert standard(state) == "4S"
    overtrump = playing_position(["4S", "9S", "KS", *CLUBS_DIAMONDS], trick=("5H", "7S"))
    assert standard(overtrump) == "9S"


def test_unmade_and_void_without_a_winning_spade_plays_its_lowest_card():
    state = playing_position(["4S", "9S", "KS", *CLUBS_DIAMONDS], trick=("5H", "AS"))
    assert standard(state) == "2C"


def test_made_plays_its_lowest_card():
    state = playing_position(["AH", "9H", "3H", *CLUBS_DIAMONDS], trick=("5H",), bids=(2, 3, 3, 3), won=(2, 0, 0, 0))
    assert standard(state) == "3H"


def test_made_plays_its_highest_card_when_it_must_take_the_trick():
    state = playing_position(["AH", "9H", "7H", *CLUBS_DIAMONDS], trick=("5H",), bids=(2, 3, 3, 3), won=(2, 0, 0, 0))
    assert standard(state) == "AH"


def test_made_and_void_discards_rather_than_trumping():
    hand = ["2S", "3S", "KD", "QC", "KC", "AC", "AD", "QD", "JD", "TD", "JC", "TC", "9C"]
    state = playing_position(hand, trick=("5H",), bids=(2, 3, 3, 3), won=(3, 0, 0, 0))
    assert standard(state) == "9C"


def test_leading_unmade_leads_its_highest_legal_card_and_respects_unbroken_spades():
    hand = ["AS", "KH", "2C", *CLUBS_DIAMONDS[1:]]
    assert standard(playing_position(hand)) == "KH"
    broken = playing_position(
        ["AS", "KH", "2C", "3C", "4C", "5C", "6C", "2D", "3D", "4D", "5D", "6D"], spades_broken=True
    )
    assert standard(broken) == "AS"


def test_leading_made_leads_its_lowest_card():
    hand = ["AS", "KH", "3C", "2D", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"]
    assert standard(playing_position(hand, bids=(1, 3, 3, 3), won=(1, 0, 0, 0))) == "2D"


def test_nil_bidder_always_plays_to_lose():
    state = playing_position(["AH", "9H", "3H", *CLUBS_DIAMONDS], trick=("5H",), bids=(0, 3, 3, 3))
    assert standard(state) == "3H"
    forced = playing_position(["AH", "KH", "7H", *CLUBS_DIAMONDS], trick=("5H",), bids=(0, 3, 3, 3))
    assert standard(forced) == "AH"


PARTNERSHIP = make_rules("partnership")


def test_never_overtakes_a_winning_partner():
    # seat 1 leads 5H, partner (seat 2) plays KH and is winning, seat 3 plays 7H
    hand = ["AH", "3H", "7C", *CLUBS_DIAMONDS]
    state = playing_position(hand, trick=("5H", "KH", "7H"), rules=PARTNERSHIP, bids=(4, 3, 4, 3))
    assert standard(state) == "3H"
    alone = playing_position(hand, trick=("5H", "KH", "7H"), bids=(4, 3, 4, 3))
    assert standard(alone) == "AH"


def test_never_trumps_a_winning_partner():
    hand = ["2S", "9S", "7C", *CLUBS_DIAMONDS]
    state = playing_position(hand, trick=("5H", "KH", "7H"), rules=PARTNERSHIP, bids=(4, 3, 4, 3))
    assert standard(state) == "2C"


def test_overtakes_an_opponent_in_partnership():
    hand = ["AH", "3H", "7C", *CLUBS_DIAMONDS]
    state = playing_position(hand, trick=("5H", "2H", "KH"), rules=PARTNERSHIP, bids=(4, 3, 4, 3))
    assert standard(state) == "AH"


@pytest.mark.parametrize(
    ("won", "nil_counts", "expected"),
    [
        ((1, 0, 3, 0), True, "3H"),  # team 4 of contract 2+2: made, plays low
        ((1, 0, 2, 0), True, "AH"),  # team 3 of 4: not made
    ],
)
def test_partnership_counts_the_team_contract_and_team_tricks(won, nil_counts, expected):
    rules = make_rules("partnership", nil_tricks_count_for_team=nil_counts)
    hand = ["AH", "9H", "3H", *CLUBS_DIAMONDS]
    state = playing_position(hand, trick=("5H",), rules=rules, bids=(2, 3, 2, 3), won=won)
    assert standard(state) == expected


def test_nil_partner_tricks_count_only_when_the_rule_says_so():
    hand = ["AH", "9H", "3H", *CLUBS_DIAMONDS]
    counting = make_rules("partnership", nil_tricks_count_for_team=True)
    not_counting = make_rules("partnership", nil_tricks_count_for_team=False)
    kwargs = {"trick": ("5H",), "bids": (4, 3, 0, 3), "won": (3, 0, 1, 0)}
    assert standard(playing_position(hand, rules=counting, **kwargs)) == "3H"
    assert standard(playing_position(hand, rules=not_counting, **kwargs)) == "AH"
