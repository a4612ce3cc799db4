"""The house rules (docs/rules.md, "House rules"): unit cases and properties of random legal games."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.engine import (
    BIG_JOKER,
    HIGH_DEUCE_OF_SPADES,
    LITTLE_JOKER,
    PRESETS,
    Bid,
    CardsPassed,
    EngineError,
    ExchangeDone,
    HandShown,
    Look,
    Pass,
    Play,
    RuleError,
    Rules,
    apply,
    apply_with_events,
    codes,
    from_json,
    legal_moves,
    make_rules,
    new_game,
    round_started,
    to_json,
    turn,
    view,
)
from services.engine.bidding import legal_bids
from services.engine.cards import FULL_DECK, SUIT_OF, beats, lowest_by_rank, mask_of, parse_card, trick_winner_card
from services.engine.rules import rules_from_dict
from services.engine.scoring import game_winner, round_parts, score_round
from services.engine.serialization import to_dict
from services.engine.state import dealt_hands, first_seat, hand_hidden
from tests.engine.builders import cards, playing_state

SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_ROUNDS = 2
BLIND_OFF = {"blind_nil": False, "blind_bids": False}


@st.composite
def house_rules(draw: st.DrawFn) -> Rules:
    """A valid partnership game with a random set of house rules (blind margin often 0, so blind play happens)."""
    options: dict = {"win_score": draw(st.integers(150, 400)), "lose_score": -draw(st.integers(150, 400))}
    for name in ("jokers", "deuces_high", "blind_nil", "blind_bids", "suicide", "ten_for_200", "boston"):
        options[name] = draw(st.booleans())
    if options["blind_nil"] or options["blind_bids"]:
        options["blind_margin"] = draw(st.sampled_from([0, 0, 50, 100]))
    options["nil_pass_cards"] = draw(st.integers(0, 3))
    if options["nil_pass_cards"] and options["blind_nil"]:
        options["nil_pass_blind_only"] = draw(st.booleans())
    options["mercy_margin"] = draw(st.sampled_from([None, 150, 300]))
    return make_rules("partnership", **options)


every_variant = st.one_of(
    house_rules(),
    st.sampled_from([make_rules(p, blind_margin=0) if PRESETS[p].blind_decisions else make_rules(p) for p in PRESETS]),
)


def play(rules: Rules, seed: int, move_seed: int, check_step=None):
    """A random legal game (at most MAX_ROUNDS rounds): the final state and the moves made."""
    rng = random.Random(move_seed)
    state = new_game(rules, seed=seed)
    moves = []
    while state.phase != "game_over" and len(state.history) < MAX_ROUNDS:
        seat = turn(state)
        options = legal_moves(state, seat)
        assert options, f"seat {seat} has no legal move in {state.phase}"
        if check_step:
            check_step(state)
        move = rng.choice(options)
        state = apply(state, seat, move)
        moves.append((seat, move))
    return state, moves


# ---- the documented scoring table, written again independently of services.engine.scoring


def documented_side_points(rules: Rules, side: int, bids, blind, tricks) -> tuple[int, int]:
    seats = rules.seats_of(side)
    points = 0
    contract = blind_part = taken = 0
    for seat in seats:
        if bids[seat] == 0:
            value = rules.blind_nil_value if blind and blind[seat] else rules.nil_value
            points += value if tricks[seat] == 0 else -value
            if rules.nil_tricks_count_for_team:
                taken += tricks[seat]
        else:
            contract += bids[seat]
            blind_part += bids[seat] if blind and blind[seat] else 0
            taken += tricks[seat]
    worth = 10 * (contract + blind_part)
    if rules.ten_for_200 and contract >= 10:
        worth = rules.ten_for_200_value
    if rules.boston and contract == 13:  # a Boston
        worth = 500
    if taken >= contract:
        return points + worth + taken - contract, taken - contract
    return points + (-worth if rules.set_penalty == "negative" else 0), 0


# ---- properties


@SETTINGS
@given(every_variant, st.integers(0, 2**63 - 1), st.integers(0, 2**32))
def test_every_round_deals_the_decks_52_cards_and_plays_each_once_in_13_tricks(rules, seed, move_seed):
    state, _ = play(rules, seed, move_seed)
    deck = rules.deck.cards
    assert deck.bit_count() == 52
    for index, record in enumerate(state.history):
        assert len(record.plays) == 52 and mask_of(record.plays) == deck
        hands = dealt_hands(first_seat(index + 1), record.plays, record.passes)
        assert all(h.bit_count() == 13 for h in hands)
        assert hands[0] | hands[1] | hands[2] | hands[3] == deck
        assert sum(view(state, None)["history"][index]["tricks_won"]) == 13


@SETTINGS
@given(every_variant, st.integers(0, 2**63 - 1), st.integers(0, 2**32))
def test_scores_follow_the_documented_table(rules, seed, move_seed):
    state, _ = play(rules, seed, move_seed)
    bags = (0, 0)
    for index, record in enumerate(state.history):
        tricks = view(state, None)["history"][index]["tricks_won"]
        for side in range(2):
            points, gained = documented_side_points(rules, side, record.bids, record.blind, tricks)
            total = bags[side] + gained
            hits = total // rules.bag_limit if rules.bag_penalty else 0
            assert record.points[side] == points - hits * rules.bag_penalty
        shown = view(state, None)["history"][index]["parts"]  # what a round summary shows adds up to the points
        for side, part in enumerate(shown):
            nils = sum(n["points"] for n in part["nils"])
            assert part["contract"]["points"] + part["bags"] + part["penalty"] + nils == part["total"]
            assert (
                part["total"] == record.points[side]
                and part["penalty"] == -record.bag_penalties[side] * rules.bag_penalty
            )
        bags = record.bags
    if state.phase == "game_over":
        assert game_winner(rules, state.scores) == rules.side_of(state.winner[0])


@SETTINGS
@given(every_variant, st.integers(0, 2**63 - 1), st.integers(0, 2**32))
def test_suicide_puts_exactly_one_nil_in_each_side(rules, seed, move_seed):
    rules = rules_from_dict({**rules.to_dict(), "suicide": True}) if rules.partnership else PRESETS["suicide_partners"]
    state, _ = play(rules, seed, move_seed)
    for record in state.history:
        for side in range(2):
            assert sorted(record.bids[s] == 0 for s in (side, side + 2)) == [False, True]
            assert max(record.bids[side], record.bids[side + 2]) >= max(1, rules.min_team_bid)


@SETTINGS
@given(every_variant, st.integers(0, 2**63 - 1), st.integers(0, 2**32))
def test_no_view_shows_a_card_it_may_not(rules, seed, move_seed):
    def check(state):
        deal = round_started(state).hands
        for seat in (None, 0, 1, 2, 3):
            v = view(state, seat)
            current = {k: v[k] for k in ("hand", "trick", "tricks", "passes") if k in v}
            if v["tricks"]:
                current["last_trick"] = v["last_trick"]
            shown = {c for c in codes(rules.deck.cards) if f'"{c}"' in json.dumps(current)}
            played = set(codes(mask_of(state.plays)))
            allowed = set(played)
            if seat is not None and not hand_hidden(state, seat):
                allowed |= set(codes(state.hands[seat] | state.passes[seat]))
                if state.phase != "passing":
                    allowed |= set(codes(state.passes[(seat + 2) % 4]))
            assert shown <= allowed, (seat, shown - allowed)
            if seat is not None and hand_hidden(state, seat):
                assert v["hand"] is None and v["hand_hidden"]
                assert not shown & set(codes(deal[seat])) - played
            if seat is None:
                assert v["hand"] is None and v.get("passes") is None

    def sometimes(state):  # every decision, then every third card: the view costs more than the move
        if state.phase != "playing" or len(state.plays) % 3 == 0:
            check(state)

    play(rules, seed, move_seed, check_step=sometimes)


@SETTINGS
@given(every_variant, st.integers(0, 2**63 - 1), st.integers(0, 2**32))
def test_json_round_trip_and_replay_are_exact(rules, seed, move_seed):
    def check(state):
        text = to_json(state)
        assert from_json(text) == state
        assert text == json.dumps(to_dict(state), separators=(",", ":"))

    final, moves = play(rules, seed, move_seed, check_step=check)
    replayed = new_game(rules, seed=seed)
    for seat, move in moves:
        replayed = apply(replayed, seat, move)
    assert replayed == final == from_json(to_json(final))


# ---- cards


def test_the_presets_of_the_seeds_are_unchanged_and_play_the_standard_deck():
    assert PRESETS["partnership"] == Rules()
    for name in ("partnership", "individual"):
        assert PRESETS[name].deck.cards == FULL_DECK
        assert not any(getattr(PRESETS[name], option) for option in ("jokers", "deuces_high", "blind_nil", "suicide"))


def test_jokers_replace_the_two_minor_deuces_and_rank_above_every_spade():
    deck = make_rules("partnership", jokers=True).deck
    assert deck.cards & mask_of([parse_card("2C"), parse_card("2D")]) == 0
    assert deck.parse("LJ") == LITTLE_JOKER and deck.parse("BJ") == BIG_JOKER
    assert SUIT_OF[LITTLE_JOKER] == SUIT_OF[BIG_JOKER] == 3
    trick = mask_of([parse_card("AS"), LITTLE_JOKER, BIG_JOKER, parse_card("KH")])
    assert trick_winner_card(trick, 2) == BIG_JOKER
    assert beats(LITTLE_JOKER, parse_card("AS")) and not beats(LITTLE_JOKER, BIG_JOKER)
    with pytest.raises(ValueError):
        deck.parse("2C")


def test_deuces_high_puts_the_two_of_spades_above_the_ace_and_below_the_jokers():
    deck = make_rules("partnership", jokers=True, deuces_high=True).deck
    assert deck.parse("2S") == HIGH_DEUCE_OF_SPADES and codes(1 << HIGH_DEUCE_OF_SPADES) == ["2S"]
    assert beats(HIGH_DEUCE_OF_SPADES, parse_card("AS")) and beats(LITTLE_JOKER, HIGH_DEUCE_OF_SPADES)
    assert make_rules("partnership").deck.parse("2S") == parse_card("2S")
    assert lowest_by_rank(mask_of([HIGH_DEUCE_OF_SPADES, parse_card("AH")])) == parse_card("AH")


def test_a_joker_led_is_a_spade_lead_and_cannot_be_led_before_spades_are_broken():
    rules = make_rules("partnership", jokers=True)
    unbroken = playing_state((0, mask_of([LITTLE_JOKER, parse_card("4H")]), 0, 0), rules=rules, leader=1)
    assert legal_moves(unbroken, 1) == [Play(parse_card("4H"))]  # a heart left: the joker is an unbroken spade
    hands = (
        mask_of(cards("3S", "5H")),
        mask_of([LITTLE_JOKER, parse_card("4H")]),
        mask_of([BIG_JOKER, parse_card("6H")]),
        mask_of(cards("7H", "8S")),
    )
    broken = playing_state(hands, rules=rules, plays=cards("9C", "TC", "JC", "QS"), leader=2)
    after = apply(broken, 2, Play(BIG_JOKER))  # spades broken: the joker may lead
    assert legal_moves(after, 3) == [Play(parse_card("8S"))]  # and it is a spade lead


# ---- bids


def test_suicide_legal_bids():
    rules = make_rules("suicide_partners")
    assert legal_bids(rules, (None,) * 4, 1) == [0, *range(4, 14)]
    assert legal_bids(rules, (None, 0, None, None), 3) == list(range(4, 14))
    assert legal_bids(rules, (None, 5, None, None), 3) == [0]


def test_a_seat_that_trails_decides_blind_before_seeing_its_hand():
    rules = make_rules("partnership", blind_nil=True, blind_bids=True)
    state = replace(new_game(rules, seed=3), scores=(0, -150))
    seat = turn(state)  # seat 1 (team 1 trails by 150)
    assert hand_hidden(state, seat) and view(state, seat)["hand"] is None
    assert legal_moves(state, seat)[0] == Look() and Bid(0, blind=True) in legal_moves(state, seat)
    with pytest.raises(EngineError) as err:
        apply(state, seat, Bid(3))
    assert err.value.code == "hand_not_seen"
    looked, events = apply_with_events(state, seat, Look())
    assert events == (HandShown(seat, state.hands[seat]),) and view(looked, seat)["hand"] == codes(state.hands[seat])
    with pytest.raises(EngineError) as err:
        apply(looked, seat, Bid(0, blind=True))
    assert err.value.code == "blind_not_allowed"
    assert round_started(state).hidden == (1, 3)


def test_a_seat_that_does_not_trail_enough_sees_its_hand():
    rules = make_rules("partnership", blind_nil=True)
    state = replace(new_game(rules, seed=3), scores=(0, -50))
    assert not hand_hidden(state, 1) and Bid(0, blind=True) not in legal_moves(state, 1)


# ---- the nil exchange


def test_the_nil_exchange_sets_cards_aside_and_delivers_them_together():
    rules = make_rules("partnership", nil_pass_cards=2)
    state = new_game(rules, seed=5)
    for bid in (0, 3, 4, 3):  # seat 1 bids nil: seats 1 and 3 exchange
        state = apply(state, turn(state), Bid(bid))
    assert state.phase == "passing" and turn(state) == 1
    give1 = mask_of(list(codes_to_cards(state.hands[1]))[:2])
    state, events = apply_with_events(state, 1, Pass(give1))
    assert events == (CardsPassed(1, 3, give1),)
    assert view(state, 3)["passes"] == {"gave": [], "received": []}  # not delivered yet
    give3 = mask_of(list(codes_to_cards(state.hands[3]))[-2:])
    hand1, hand3 = state.hands[1], state.hands[3]
    state, events = apply_with_events(state, 3, Pass(give3))
    assert state.phase == "playing" and isinstance(events[-1], ExchangeDone)
    assert state.hands[1] == hand1 | give3 and state.hands[3] == hand3 & ~give3 | give1
    assert view(state, 1)["passes"] == {"gave": codes(give1), "received": codes(give3)}
    assert view(state, 0)["passes"] == {"gave": [], "received": []}


def codes_to_cards(mask: int):
    return (c for c in range(55) if mask >> c & 1)


@pytest.mark.parametrize("wrong", ["two cards", "a card not in the hand"])
def test_a_pass_of_the_wrong_size_or_cards_is_refused(wrong):
    state = new_game(make_rules("partnership", nil_pass_cards=1), seed=5)
    for bid in (0, 3, 4, 3):
        state = apply(state, turn(state), Bid(bid))
    seat = turn(state)
    hand = state.hands[seat]
    cards_given = (
        hand & -hand | (hand & (hand - 1)) & -(hand & (hand - 1)) if wrong == "two cards" else FULL_DECK & ~hand
    )
    with pytest.raises(EngineError) as err:
        apply(state, seat, Pass(cards_given & -cards_given if wrong != "two cards" else cards_given))
    assert err.value.code == "wrong_pass"


# ---- scoring


@pytest.mark.parametrize(
    ("options", "bids", "blind", "tricks", "points"),
    [
        ({"blind_bids": True}, (4, 0, 3, 0), (True, False, False, False), (5, 0, 3, 0), 111),  # 10 * (7 + 4) + 1
        ({"blind_bids": True}, (4, 0, 3, 0), (True, False, False, False), (2, 0, 3, 0), -110),
        ({"blind_nil": True}, (0, 0, 4, 0), (True, False, False, False), (0, 0, 5, 0), 241),  # 200 + 41
        ({"blind_nil": True}, (0, 0, 4, 0), (True, False, False, False), (1, 0, 5, 0), -200 + 42),
        ({"ten_for_200": True}, (6, 0, 4, 0), (), (7, 0, 4, 0), 201),
        ({"ten_for_200": True}, (6, 0, 4, 0), (), (5, 0, 4, 0), -200),
        ({"ten_for_200": True, "ten_for_200_value": 250}, (6, 0, 3, 0), (), (6, 0, 3, 0), 90),  # 9: not a 10 bid
        ({"boston": True}, (7, 0, 6, 0), (), (7, 0, 6, 0), 500),  # a Boston made
        ({"boston": True}, (7, 0, 6, 0), (), (7, 0, 5, 0), -500),
        ({"boston": True, "ten_for_200": True}, (7, 0, 6, 0), (), (7, 0, 6, 0), 500),  # the Boston's worth, not 200
        ({"boston": True}, (7, 0, 5, 0), (), (7, 0, 6, 0), 121),  # 12 bid: 10 a trick
    ],
)
def test_the_scoring_table(options, bids, blind, tricks, points):
    rules = make_rules("partnership", **options)
    assert score_round(rules, bids, tricks, (0, 0), blind).points[0] == points


def test_a_rounds_parts_name_blind_bids_the_ten_for_200_bonus_and_a_blind_nil():
    """Part by part, as the round summary shows them (docs/rules.md's table)."""
    rules = make_rules("partnership", blind_nil=True, blind_bids=True, ten_for_200=True)
    blind_round = round_parts(rules, (4, 0, 3, 5), (5, 0, 3, 5), (True, True, False, False), (0, 0))
    assert blind_round[0]["contract"] == {"bid": 7, "taken": 8, "points": 110, "blind": 4, "bonus": None}
    assert (blind_round[0]["bags"], blind_round[0]["total"]) == (1, 111)
    assert blind_round[1]["nils"] == [{"seat": 1, "made": True, "blind": True, "points": 200}]
    ten = round_parts(rules, (6, 2, 4, 1), (6, 0, 5, 2), (), (0, 0))
    assert ten[0]["contract"] == {"bid": 10, "taken": 11, "points": 200, "blind": 0, "bonus": "ten_for_200"}
    assert ten[1]["contract"]["points"] == -30 and ten[1]["total"] == -30


def test_a_boston_is_named_as_the_contracts_bonus():
    rules = make_rules("individual", boston=True)
    parts = round_parts(rules, (13, 0, 0, 0), (13, 0, 0, 0), (), (0, 0, 0, 0))
    assert parts[0]["contract"] == {"bid": 13, "taken": 13, "points": 500, "blind": 0, "bonus": "boston"}


def test_the_mercy_rule_ends_the_game_when_a_side_trails_by_the_margin():
    rules = make_rules("partnership", mercy_margin=300)
    assert game_winner(rules, (150, -150)) == 0
    assert game_winner(rules, (150, -149)) is None


# ---- refused combinations


@pytest.mark.parametrize(
    ("preset", "options", "named"),
    [
        ("individual", {"suicide": True}, ("suicide", "scoring")),
        ("partnership", {"suicide": True, "nil": False}, ("suicide", "nil")),
        ("partnership", {"blind_nil": True, "nil": False}, ("blind_nil", "nil")),
        ("partnership", {"nil_pass_cards": 2, "nil": False}, ("nil_pass_cards", "nil")),
        ("individual", {"nil_pass_cards": 2}, ("nil_pass_cards", "scoring")),
        ("partnership", {"nil_pass_cards": 2, "nil_pass_blind_only": True}, ("nil_pass_blind_only", "blind_nil")),
        ("partnership", {"blind_nil": True, "nil_pass_blind_only": True}, ("nil_pass_blind_only", "nil_pass_cards")),
        ("partnership", {"blind_margin": 0}, ("blind_margin", "blind_nil")),
        ("partnership", {"blind_nil_value": 300}, ("blind_nil_value", "blind_nil")),
        ("partnership", {"ten_for_200": True, "max_team_bid": 9}, ("ten_for_200", "max_team_bid")),
        ("partnership", {"nil_pass_cards": 4}, ("nil_pass_cards",)),
        ("partnership", {"mercy_margin": 0}, ("mercy_margin",)),
    ],
)
def test_combinations_that_make_no_sense_are_refused_naming_both_options(preset, options, named):
    with pytest.raises(RuleError) as err:
        make_rules(preset, **options)
    assert err.value.options == named
    assert all(name in str(err.value) for name in named)
