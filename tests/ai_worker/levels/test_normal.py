"""Normal's play (services.ai_worker.levels.normal): the live level's attack on an opponent's
live nil, and its compiled rules everywhere else."""

from __future__ import annotations

from services.ai_worker.levels.normal import position_card
from services.ai_worker.position import position_of
from services.engine import card_code, make_rules, view

from ..helpers import playing_position

PARTNERSHIP = make_rules("partnership")
EAST_NIL = {"bids": (3, 0, 3, 4), "rules": PARTNERSHIP}  # seat 1 bid nil; seat 0 (this seat) and 2 bid 6


def both(state, at_any_cost: bool = True) -> tuple[str, str]:
    """(attacking_card, normal_card) for seat 0."""
    position = position_of(view(state, 0))
    attack = position_card(position, True, at_any_cost)
    return card_code(int(attack)), card_code(int(position_card(position, False, False)))


def test_leads_the_suit_where_the_nil_bidder_can_duck_least() -> None:
    # normal leads low from its longest suit (7D, five cards below it out); the 2C has none below
    hand = ["2C", "7D", "8D", "9D", "TD", "JD", "AS", "KS", "QS", "AH", "KH", "QH", "JH"]
    attack, plain = both(playing_position(hand, **EAST_NIL))
    assert (attack, plain) == ("2C", "7D")


def test_void_before_the_nil_bidder_discards_a_high_side_card_not_a_trump() -> None:
    # West (seat 3) led a heart; this seat has none and plays before the nil bidder (seat 1)
    hand = ["2C", "3C", "KC", "4D", "5D", "AD", "2S", "3S", "9S", "TS", "JS", "QS", "KS"]
    attack, _ = both(playing_position(hand, trick=("5H",), **EAST_NIL))
    assert attack == "AD"


def test_before_the_nil_bidder_follows_with_the_lowest_card() -> None:
    hand = ["2H", "9H", "KH", "4D", "5D", "AD", "2S", "3S", "9S", "TS", "JS", "QS", "KS"]
    attack, _ = both(playing_position(hand, trick=("5H",), **EAST_NIL))
    assert attack == "2H"


def test_after_a_winning_nil_bidder_stays_under_its_card() -> None:
    # the nil bidder (seat 1) led 8H, this seat's partner and West played under it; this seat is last
    hand = ["4H", "7H", "KH", "4D", "5D", "AD", "2S", "3S", "9S", "TS", "JS", "QS", "KS"]
    state = playing_position(hand, trick=("8H", "3H", "2H"), bids=(3, 0, 3, 4), rules=PARTNERSHIP)
    attack, _ = both(state)
    assert attack == "7H"


def test_with_its_own_contract_at_risk_only_the_live_level_attacks() -> None:
    # the side bid 13 between them: every trick is needed; expert's rollouts play for the contract
    hand = ["2C", "7D", "8D", "9D", "TD", "JD", "AS", "KS", "QS", "AH", "KH", "QH", "JH"]
    state = playing_position(hand, bids=(7, 0, 6, 4), rules=PARTNERSHIP)
    careful, plain = both(state, at_any_cost=False)
    assert careful == plain != "2C"
    live, _ = both(state)
    assert live == "2C"


def test_without_a_nil_it_plays_as_normal() -> None:
    hand = ["2C", "7D", "8D", "9D", "TD", "JD", "AS", "KS", "QS", "AH", "KH", "QH", "JH"]
    for trick in ((), ("5H",), ("3H", "2H", "8H")):
        attack, plain = both(playing_position(hand, trick=trick, bids=(3, 3, 3, 4), rules=PARTNERSHIP))
        assert attack == plain


def test_in_the_individual_game_it_plays_as_normal() -> None:
    # setting one opponent's nil helps the other two: the attack is for partnerships
    hand = ["2C", "7D", "8D", "9D", "TD", "JD", "AS", "KS", "QS", "AH", "KH", "QH", "JH"]
    attack, plain = both(playing_position(hand, bids=(3, 0, 3, 4), rules=make_rules("individual")))
    assert attack == plain == "7D"
