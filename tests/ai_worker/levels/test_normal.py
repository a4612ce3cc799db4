"""Normal's play (services.ai_worker.levels.normal): the live level's attack on an opponent's
live nil, expert's rollouts taking the tricks normal ducks and attacking any rival's nil in the
individual game, and its compiled rules everywhere else."""

from __future__ import annotations

import numpy as np
from numba import njit

from services.ai_worker.levels.normal import attacking_card, position_card
from services.ai_worker.position import position_of
from services.ai_worker.records import rules_of, trick_of
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


def test_in_the_individual_game_the_live_level_plays_as_normal() -> None:
    # setting one opponent's nil helps the other two: the live level attacks in partnerships only
    hand = ["2C", "7D", "8D", "9D", "TD", "JD", "AS", "KS", "QS", "AH", "KH", "QH", "JH"]
    attack, plain = both(playing_position(hand, bids=(3, 0, 3, 4), rules=make_rules("individual")))
    assert attack == plain == "7D"


@njit
def _rollout_card(position: np.ndarray, greedy: bool, rivals_nil: bool) -> int:
    p = position[0]
    return attacking_card(p.seat, p.hand, p.out, position, trick_of(p), rules_of(p), False, False, greedy, rivals_nil)


def rollout_card(state, greedy: bool, rivals_nil: bool = True) -> str:
    """Seat 0's card as expert's rollouts play it (``greedy``, ``rivals_nil``), or with either off."""
    return card_code(int(_rollout_card(position_of(view(state, 0)), greedy, rivals_nil)))


def test_in_the_individual_game_the_rollouts_attack_a_rivals_nil() -> None:
    # the rivals expert meets set nils: its rollouts lead where the nil bidder (seat 1) can duck least
    hand = ["2C", "7D", "8D", "9D", "TD", "JD", "AS", "KS", "QS", "AH", "KH", "QH", "JH"]
    state = playing_position(hand, bids=(3, 0, 3, 4), rules=make_rules("individual"))
    assert rollout_card(state, greedy=False) == rollout_card(state, greedy=True) == "2C"
    assert rollout_card(state, greedy=False, rivals_nil=False) == "7D"


# this seat bid 2 and took 2 tricks; West led 5H, North and East played under the KH; nobody can be set
MADE_LAST_TO_PLAY = ["KH", "4H", "2C", "7D", "8D", "9D", "TD", "JD", "2S", "3S", "4S"]
MADE = {"trick": ("5H", "9H", "QH"), "bids": (2, 4, 4, 3), "won": (2, 0, 0, 0)}


def test_in_the_individual_game_without_a_bag_penalty_the_rollouts_take_a_trick_normal_ducks() -> None:
    # a bag costs nothing there, and the trick ducked goes to a rival still playing for its contract
    state = playing_position(MADE_LAST_TO_PLAY, **MADE, rules=make_rules("individual"))
    assert rollout_card(state, greedy=True) == "KH"
    assert rollout_card(state, greedy=False) == "4H"
    assert card_code(int(position_card(position_of(view(state, 0)), True, True))) == "4H"  # the live level ducks


def test_with_a_bag_penalty_or_a_partner_the_rollouts_duck_as_normal() -> None:
    costly = make_rules("individual", bag_limit=5, bag_penalty=50)
    assert rollout_card(playing_position(MADE_LAST_TO_PLAY, **MADE, rules=costly), greedy=True) == "4H"
    side_made = {"trick": ("5H", "9H", "QH"), "bids": (1, 4, 1, 3), "won": (1, 0, 1, 0)}
    assert rollout_card(playing_position(MADE_LAST_TO_PLAY, **side_made, rules=PARTNERSHIP), greedy=True) == "4H"
