"""Basic (seed 002's easiest level): its bid and card rules, and that it never
bids nil by accident – it is also the API's fallback move."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from services.computers import (
    BULK_QUEUES,
    LEVEL_NAMES,
    LEVELS,
    QUEUES,
    WORKER_QUEUES,
    basic_bid,
    basic_move,
    level_queues,
    nearest_legal,
)
from services.engine import Bid, Look, Pass, Play, apply, codes, make_rules, new_game, turn, view
from services.engine.cards import mask_of, parse_card


def first_bidder_view(hand: list[str], preset: str = "partnership", **rules):
    state = new_game(make_rules(preset, **rules), seed=4)
    seat = turn(state)
    mine = mask_of(parse_card(c) for c in hand)
    rest = [c for c in range(52) if not mine >> c & 1]
    others = iter(sum(1 << c for c in rest[i * 13 : i * 13 + 13]) for i in range(3))
    hands = tuple(mine if s == seat else next(others) for s in range(4))
    state = replace(state, hands=hands)
    return state, view(state, seat)


def test_bids_one_trick_per_ace_and_king():
    hand = ["AS", "KH", "AD", "2C", "3C", "4C", "5C", "6H", "7H", "8H", "9D", "TD", "JD"]
    assert basic_bid(first_bidder_view(hand)[1]) == 3


def test_a_hand_without_aces_or_kings_bids_one_not_nil():
    hand = ["2C", "3C", "4C", "5C", "6H", "7H", "8H", "9D", "TD", "JD", "QD", "2S", "3S"]
    assert basic_bid(first_bidder_view(hand)[1]) == 1


def test_plays_its_lowest_legal_card_by_rank_clubs_first():
    state = new_game(make_rules("individual"), seed=9)
    for _ in range(4):
        state = apply(state, turn(state), Bid(2))
    v = view(state, turn(state))
    codes = v["legal"]
    lowest = min(codes, key=lambda c: ("23456789TJQKA".index(c[0]), "CDHS".index(c[1])))
    assert basic_move(v) == {"card": lowest}


def test_nearest_legal_never_turns_a_low_estimate_into_nil():
    assert nearest_legal(1, [0, 2, 3, 4]) == 2  # the team minimum bites: 2, not nil
    assert nearest_legal(0, [0, 1, 2]) == 0  # nil only when asked for
    assert nearest_legal(3, [0]) == 0  # or when it is the only legal bid


@pytest.mark.parametrize("preset", ["partnership", "individual"])
@pytest.mark.parametrize("nil", [True, False])
def test_basic_never_bids_nil_unless_nil_is_the_only_legal_bid(preset, nil):
    rng = random.Random(3)
    seen_team_minimum = 0
    for _ in range(150):
        state = new_game(make_rules(preset, nil=nil), seed=rng.randrange(10**9))
        while state.phase == "bidding":
            seat = turn(state)
            v = view(state, seat)
            bid = basic_move(v)["bid"]
            assert bid in v["legal"]
            assert bid != 0 or v["legal"] == [0]
            seen_team_minimum += 0 in v["legal"] and 1 not in v["legal"]
            # others bid at random (nil included) so the team minimum bites often
            state = apply(state, seat, Bid(rng.choice(v["legal"][:4])))
    if preset == "partnership" and nil:
        assert seen_team_minimum > 0


def test_the_catalogue_names_each_level_once_with_its_seed_and_queue():
    """A name is a module of services/ai_worker/levels, a queue's suffix and a catalogue key: a plain word."""
    assert all(re.fullmatch(r"[a-z]+", name) and LEVELS[name].name == name for name in LEVEL_NAMES)
    assert {"easy", "standard", "pro", "basic", "normal", "hard", "expert"} <= set(LEVEL_NAMES)
    assert {LEVELS[name].seed for name in ("easy", "standard", "pro")} == {"000"}
    assert {LEVELS[name].seed for name in ("basic", "normal", "hard", "expert")} == {"002"}
    assert tuple(f"ai.{name}" for name in LEVEL_NAMES) == QUEUES
    assert all(level.description for level in LEVELS.values())


def test_each_level_has_a_bulk_queue_that_workers_read_after_every_interactive_one():
    assert tuple(f"ai.bulk.{name}" for name in LEVEL_NAMES) == BULK_QUEUES
    assert not set(QUEUES) & set(BULK_QUEUES)
    assert WORKER_QUEUES == QUEUES + BULK_QUEUES, "a worker of every level polls all interactive queues first"
    assert level_queues("hard") == ("ai.hard", "ai.bulk.hard")


# ---- the house rules (docs/rules.md): basic looks, passes its lowest cards, plays every variant


@pytest.mark.parametrize("preset", ["jokers_deuces_high", "blind_nil_passing", "suicide_partners", "house"])
def test_basic_plays_every_house_rule_preset_with_legal_moves_only(preset):
    from services.engine import apply, legal_moves
    from services.engine.rules import PRESETS, rules_from_dict

    rules = PRESETS[preset]
    if rules.blind_decisions:
        rules = rules_from_dict({**rules.to_dict(), "blind_margin": 0})
    state = new_game(rules, seed=21)
    deck = rules.deck
    while state.phase != "game_over" and len(state.history) < 3:
        seat = turn(state)
        move = basic_move(view(state, seat))
        if "look" in move:
            engine = Look()
        elif "pass" in move:
            engine = Pass(mask_of(deck.parse(c) for c in move["pass"]))
        elif "card" in move:
            engine = Play(deck.parse(move["card"]))
        else:
            engine = Bid(move["bid"])
        assert engine in legal_moves(state, seat), (preset, move)
        state = apply(state, seat, engine)
    assert state.history


def test_basic_never_bids_blind_and_passes_its_lowest_cards():
    rules = make_rules("partnership", blind_nil=True, nil_pass_cards=2, blind_margin=0)
    state = new_game(rules, seed=4)
    assert basic_move(view(state, turn(state))) == {"look": True}
    for bid in (0, 3, 4, 3):
        seat = turn(state)
        if view(state, seat)["hand_hidden"]:
            state = apply(state, seat, Look())
        state = apply(state, seat, Bid(bid))
    seat = turn(state)
    hand = [parse_card(c) for c in view(state, seat)["hand"]]
    lowest_two = sorted(hand, key=lambda c: (c % 13, c // 13))[:2]
    assert sorted(basic_move(view(state, seat))["pass"]) == sorted(codes(mask_of(lowest_two)))


def test_basic_counts_the_jokers_and_the_high_deuce_as_honours():
    state = new_game(make_rules("jokers_deuces_high"), seed=4)
    seat = turn(state)
    hand = view(state, seat)["hand"]
    tops = sum(1 for c in hand if c in ("LJ", "BJ", "2S") or c[0] in "AK")
    assert basic_move(view(state, seat))["bid"] == nearest_legal(max(1, tops), view(state, seat)["legal"])
