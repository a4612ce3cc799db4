"""Standard (services.ai_worker.levels.standard): its play on hand-built
positions (seed 000's rules as the module interprets them), and the Monte
Carlo bid it shares with pro."""

from __future__ import annotations

import numpy as np
import pytest

from services.ai_worker import decide
from services.ai_worker.dealing import new_rng, sample_hands
from services.ai_worker.levels.standard import bid_averages, choose_bid, estimate_bid
from services.ai_worker.playout import playout
from services.ai_worker.position import position_of
from services.ai_worker.records import Trick, new_table, rules_of
from services.computers import nearest_legal
from services.engine import FULL_DECK, Bid, apply, card_code, make_rules, new_game, turn, view

from ..helpers import bidding_view, mask, playing_position
from ..reference import reference_standard

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


def naive_bid_averages(position, deals: int, seed: int) -> np.ndarray:
    """bid_tricks without its reuse shortcut: every bid of every deal played out."""
    record = position[0]
    rng = new_rng(np.uint64(seed))
    buf = np.empty(52, dtype=np.int64)
    dealt = np.empty(4, dtype=np.int64)
    totals = np.zeros(14)
    for _ in range(deals):
        sample_hands(position, True, rng, buf, dealt)
        bids = [b if b >= 0 else estimate_bid(dealt[s], record["deck"]) for s, b in enumerate(record["bids"])]
        for bid in range(14):
            bids[record["seat"]] = bid
            table = new_table()
            table[0]["hands"], table[0]["bids"] = dealt, bids
            playout(table, Trick(0, int(record["leader"]), False), rules_of(record))
            totals[bid] += table[0]["won"][record["seat"]]
    return totals / deals


@pytest.mark.parametrize("preset", ["individual", "partnership"])
def test_bid_averages_equal_playing_every_bid_out(preset):
    for seed in (1, 2, 3):
        state = new_game(make_rules(preset), seed=seed)
        state = apply(state, turn(state), Bid(3))  # a known bid for one seat, estimates for the others
        position = position_of(view(state, turn(state)))
        assert np.allclose(bid_averages(position, seed, deals=30), naive_bid_averages(position, 30, seed))


def test_choose_bid_takes_the_highest_bid_strictly_below_its_average():
    averages = np.array([0.4, 2.5, 2.6, 3.2, 3.9, 4.0, 4.0, 4.1, 4.1, 4.1, 4.1, 4.1, 4.1, 4.1])
    assert choose_bid(averages) == 3
    assert choose_bid(np.array([0.2] + [1.0] * 13)) == 0  # 1.0 is not above 1: nil
    assert choose_bid(np.array([0.0] + [0.5] * 13)) == 0


def test_nearest_legal_bid_prefers_the_lower_on_a_tie():
    assert nearest_legal(0, [1, 2, 3]) == 1
    assert nearest_legal(2, [0, 3, 4, 5]) == 3
    assert nearest_legal(2, [1, 3]) == 1
    assert nearest_legal(5, [0, 5, 9]) == 5


def test_a_strong_hand_bids_high_and_a_weak_hand_low():
    strong = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "AH", "KH", "AD", "KD", "AC", "KC"]
    weak = ["2S", "3H", "4H", "5H", "6H", "2D", "3D", "4D", "5D", "2C", "3C", "4C", "6C"]
    for level in ("standard", "pro"):
        assert decide(bidding_view(strong)[1], level, seed=1)["bid"] >= 10
        assert decide(bidding_view(weak)[1], level, seed=1)["bid"] <= 1


def test_weak_hand_bids_nil_unless_nil_is_off():
    weak = ["2S", "3H", "4H", "5H", "6H", "2D", "3D", "4D", "5D", "2C", "3C", "4C", "6C"]
    assert decide(bidding_view(weak)[1], "standard", seed=2)["bid"] == 0
    assert decide(bidding_view(weak, nil=False)[1], "standard", seed=2)["bid"] == 1


def test_monte_carlo_bid_is_reproducible_and_legal_under_the_team_minimum():
    state = new_game(make_rules("partnership", min_team_bid=10), seed=9)
    state = apply(state, turn(state), Bid(1))  # seat 1
    state = apply(state, turn(state), Bid(1))  # seat 2
    seat = turn(state)  # seat 3, partner of seat 1: needs 9+ or nil
    v = view(state, seat)
    for level in ("standard", "pro"):
        first = decide(v, level, seed=5)
        assert first == decide(v, level, seed=5)
        assert first["bid"] in v["legal"]


def test_estimated_bids_follow_the_hand():
    strong = mask("AS", "KS", "QS", "JS", "TS", "9S", "AH", "KH", "AD", "KD", "AC", "2C", "3C")
    weak = mask("2S", "3H", "4H", "5H", "6H", "2D", "3D", "4D", "5D", "2C", "3C", "4C", "6C")
    assert estimate_bid(strong, FULL_DECK) >= 9
    assert estimate_bid(weak, FULL_DECK) == 1
