"""Partnership sense on hand-built positions: covering a partner's nil (every
level that plays for a side), setting an opponent's nil, ducking bags near
the penalty, taking a sure set; and seed 002's normal and hard bids."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.ai_worker import analyse, decide
from services.computers import HINT_LEVEL
from services.engine import make_rules, view

from .helpers import bidding_view, playing_position

PARTNERSHIP = make_rules("partnership")
FILLER = ["2C", "3C", "4C", "5C", "6C", "2D", "3D", "4D", "5D", "6D", "7D"]


def card_of(state, level: str, me: int = 0) -> str:
    v = view(state, me)
    card = decide(v, level, seed=3)["card"]
    assert card in v["legal"]
    return card


@pytest.mark.parametrize("level", ["standard", "pro", "normal", "hard"])
def test_a_nil_partner_winning_the_trick_is_overtaken(level):
    # Partner (seat 2) bid nil and leads KH; seat 3 follows low; seat 0 holds AH and 3H.
    state = playing_position(["AH", "3H", *FILLER], trick=("KH", "5H"), bids=(3, 3, 0, 4), rules=PARTNERSHIP)
    assert card_of(state, level) == "AH"


def test_normal_covers_a_nil_partner_who_plays_after_it():
    # Seat 0 leads 9H; seat 1's partner (seat 3, nil) plays after it: seat 1 plays its top heart.
    state = playing_position(["KH", "4H", *FILLER], me=1, trick=("9H",), bids=(3, 3, 4, 0), rules=PARTNERSHIP)
    assert card_of(state, "normal", me=1) == "KH"


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_an_opponent_nil_winning_the_trick_is_not_overtaken(level):
    # Seat 1 bid nil and is winning with 9H; seat 0 could overtake with TH but keeps under it.
    state = playing_position(["TH", "5H", *FILLER], trick=("9H", "2H", "3H"), bids=(3, 0, 3, 4), rules=PARTNERSHIP)
    assert card_of(state, level) == "5H"


def bag_position(bags: int, their_bid: int = 3):
    """Ten tricks done: seat 0's side made its 4 (6 taken, 2 bags); the other
    side has 4 (with ``their_bid`` 3 each it needs 2 of the last 3).  Seat 0
    plays last and can win with AH or duck with 6H."""
    state = playing_position(
        ["AH", "6H", "2C"], trick=("5H", "3H", "7H"), bids=(2, their_bid, 2, their_bid), won=(3, 2, 3, 2),
        rules=PARTNERSHIP,
    )  # fmt: skip
    return replace(state, bags=(bags, 0))


def test_normal_goes_for_the_set_with_bags_to_spare():
    assert card_of(bag_position(bags=0), "normal") == "AH"


def test_normal_ducks_instead_when_the_ten_bag_penalty_is_near():
    # 7 bags before the round + 2 this round: one more trick costs the penalty.
    assert card_of(bag_position(bags=7), "normal") == "6H"


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_ducks_a_trick_that_is_only_a_bag(level):
    # Both sides made their contracts: taking the trick gains a bag and nothing else.
    assert card_of(bag_position(bags=7, their_bid=2), level) == "6H"


def test_hard_takes_a_sure_set():
    # Four tricks left; the other side (seats 1 & 3) bid 8 and has 4: it needs all four,
    # and holds the top spades. Seat 0 plays last, void in diamonds: ruffing with 5S sets
    # them now, ducking lets their spades take the rest.
    state = playing_position(
        ["5S", "2C", "3C", "4C"], trick=("AD", "4D", "6D"), bids=(2, 4, 2, 4), won=(3, 2, 2, 2),
        rules=PARTNERSHIP,
    )  # fmt: skip
    v = view(state, 0)
    assert {"AS", "KS"} <= set(_unseen(v))
    assert card_of(state, "hard") == "5S"


def _unseen(v) -> set[str]:
    from services.engine.cards import CARD_CODES

    shown = set(v["hand"]) | {e["card"] for t in [*v["tricks"], {"cards": v["trick"]}] for e in t["cards"]}
    return set(CARD_CODES) - shown


STRONG = ["AS", "KS", "QS", "JS", "TS", "9S", "AH", "KH", "AD", "KD", "AC", "2C", "3C"]
HOPELESS = ["2C", "3C", "4C", "5C", "2D", "3D", "4D", "5D", "2H", "3H", "4H", "5H", "2S"]


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_strong_hand_bids_high_and_a_hopeless_one_bids_nil(level):
    strong = decide(bidding_view(STRONG, preset="partnership")[1], level, seed=1)["bid"]
    hopeless = decide(bidding_view(HOPELESS, preset="partnership")[1], level, seed=1)["bid"]
    assert strong >= 9
    assert hopeless == 0


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_no_nil_where_nil_is_off(level):
    v = bidding_view(HOPELESS, preset="partnership", nil=False)[1]
    assert decide(v, level, seed=1)["bid"] >= 1


def test_the_hint_level_explains_its_move_with_figures_for_every_candidate():
    v = bidding_view(STRONG, preset="partnership")[1]
    hint = analyse(v, seed=5)
    assert hint["level"] == HINT_LEVEL == "expert"
    assert [c["bid"] for c in hint["candidates"]] == v["legal"]
    best = max(hint["candidates"], key=lambda c: c["value"])
    assert hint["move"] == {"bid": best["bid"]}
    assert all(0.0 <= c["make_chance"] <= 1.0 for c in hint["candidates"])
