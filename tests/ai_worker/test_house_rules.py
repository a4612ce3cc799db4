"""Every level under the house rules (docs/rules.md, "House rules"): whole games with every
decision legal, the kernel's card ranking against the engine's, and the house-rule choices
that are the levels' own (hard's blind nil, normal's and hard's nil exchange)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from services.ai_worker import LEVELS, analyse, bits, decide
from services.ai_worker.levels import hard
from services.ai_worker.passing import nil_pass
from services.ai_worker.position import position_of, suicide_minimum
from services.computers import LEVELS as CATALOGUE
from services.engine import (
    BIG_JOKER,
    HIGH_DEUCE_OF_SPADES,
    LITTLE_JOKER,
    GameState,
    Rules,
    apply,
    cards_in,
    legal_moves,
    lowest_by_rank,
    make_rules,
    mask_of,
    move_error,
    new_game,
    turn,
    view,
)
from services.engine.bidding import suicide_minimum as engine_suicide_minimum
from services.engine.cards import beats, highest_by_rank

from .helpers import move_of, play_randomly

# Each house rule alone and the rule books' combinations; blind_margin 0 makes every seat
# eligible for the blind decisions in every round, so they are met at once.
VARIANTS: dict[str, dict] = {
    "jokers": {"jokers": True},
    "deuces_high": {"deuces_high": True},
    "jokers_deuces_high": {"jokers": True, "deuces_high": True},
    "blind_nil": {"blind_nil": True, "blind_margin": 0},
    "blind_bids": {"blind_bids": True, "blind_margin": 0},
    "suicide_passing": {"suicide": True, "nil_pass_cards": 3},
    "blind_nil_passing": {"blind_nil": True, "blind_margin": 0, "nil_pass_cards": 2, "nil_pass_blind_only": True},
    "ten_for_200_mercy": {"ten_for_200": True, "mercy_margin": 150},
    "individual": {
        "preset": "individual", "jokers": True, "deuces_high": True, "blind_nil": True, "blind_bids": True,
        "blind_margin": 0, "ten_for_200": True, "mercy_margin": 200,
    },
    "house": {
        "jokers": True, "deuces_high": True, "blind_nil": True, "blind_bids": True, "blind_margin": 0,
        "nil_pass_cards": 2, "suicide": True, "ten_for_200": True, "mercy_margin": 300,
    },
}  # fmt: skip


def play_game(rules: Rules, level: str, seed: int, round_cap: int = 40) -> tuple[GameState, dict[str, int]]:
    """A game with all four seats ``level``, each decision checked legal; returns the end and
    how often each kind of decision came up."""
    state = new_game(rules, seed=seed)
    kinds = {"look": 0, "blind": 0, "pass": 0, "bid": 0, "card": 0}
    n = 0
    while state.phase != "game_over" and state.round <= round_cap:
        seat = turn(state)
        decision = decide(view(state, seat), level, seed * 1000 + n)
        move = move_of(decision, rules.deck)
        assert move_error(state, seat, move) is None, (level, decision, state.phase)
        assert move in legal_moves(state, seat)
        kind = (
            "pass" if "pass" in decision else "look" if "look" in decision else "card" if "card" in decision else "bid"
        )
        kinds["blind" if decision.get("blind") else kind] += 1
        state = apply(state, seat, move)
        n += 1
    return state, kinds


SIMULATING = [level for level in LEVELS if CATALOGUE[level].simulates]  # seconds a game
QUICK_CASES = [(level, variant) for level in LEVELS if level not in SIMULATING for variant in VARIANTS] + [
    (level, variant) for level in SIMULATING for variant in ("suicide_passing", "house")
]
SLOW_CASES = [(level, variant) for level in SIMULATING for variant in VARIANTS if (level, variant) not in QUICK_CASES]


def check_short_game(level: str, variant: str) -> None:
    """A game to 120 (or down to -100) with all four seats ``level``: it ends, every decision legal."""
    options = dict(VARIANTS[variant])
    rules = make_rules(options.pop("preset", "partnership"), win_score=120, lose_score=-100, **options)
    state, kinds = play_game(rules, level, seed=LEVELS.index(level) + 7)
    assert state.phase == "game_over"
    if rules.blind_decisions:
        assert kinds["look"] + kinds["blind"] > 0
    if rules.suicide:
        assert all(0 in record.bids[side::2] for record in state.history for side in (0, 1))
    if rules.nil_pass_cards and not rules.nil_pass_blind_only:
        assert kinds["pass"] > 0


@pytest.mark.parametrize(("level", "variant"), QUICK_CASES)
def test_every_level_plays_a_short_game_of_every_variant_legally(level, variant):
    check_short_game(level, variant)


@pytest.mark.integration  # the simulating levels' other variants: a few seconds
@pytest.mark.parametrize(("level", "variant"), SLOW_CASES)
def test_the_simulating_levels_play_short_games_of_every_variant_legally(level, variant):
    check_short_game(level, variant)


# Expert is hard's search with more samples (the same code): its short games above cover every variant, and a
# whole game to 500 of four experts under each would add minutes.
WHOLE_GAME_LEVELS = [level for level in LEVELS if level != "expert"]


@pytest.mark.integration  # a minute or so: a whole game to 500 of every level under every variant
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("level", WHOLE_GAME_LEVELS)
def test_every_level_finishes_whole_games_of_every_variant(level, variant):
    options = dict(VARIANTS[variant])
    rules = make_rules(options.pop("preset", "partnership"), **options)
    # One game per case, its deals alternating between seeds 1 and 2 across the grid: every level still
    # plays both seeds' deals (over the variants), and every variant both (over the levels).
    seed = 1 + (LEVELS.index(level) + list(VARIANTS).index(variant)) % 2
    state, _ = play_game(rules, level, seed, round_cap=60)
    assert state.phase == "game_over"


def test_the_kernels_card_ranking_is_the_engines_with_every_deck():
    rng = random.Random(5)
    for jokers in (False, True):
        for deuces_high in (False, True):
            deck = make_rules("partnership", jokers=jokers, deuces_high=deuces_high).deck.cards
            cards = list(cards_in(deck))
            for _ in range(300):
                hand = sum(1 << c for c in rng.sample(cards, rng.randrange(1, 14)))
                assert bits.lowest_by_rank(hand) == lowest_by_rank(hand)
                assert bits.highest_by_rank(hand) == highest_by_rank(hand)
                best, card = rng.sample(cards, 2)
                assert bool(bits.beating_mask(best) >> card & 1) == beats(card, best)
            for card in cards:
                assert bits.suit_of(card) == (3 if card >= 39 else card // 13)


def test_the_top_spades_of_every_deck_read_as_its_ace_king_and_queen():
    standard = make_rules("partnership").deck.cards
    house = make_rules("partnership", jokers=True, deuces_high=True).deck.cards
    ace, king, queen = 1 << 12, 1 << 11, 1 << 10
    assert bits.spade_ranks(1 << 51 | 1 << 50, standard) == ace | king
    assert bits.spade_ranks(1 << BIG_JOKER | 1 << LITTLE_JOKER | 1 << HIGH_DEUCE_OF_SPADES, house) == ace | king | queen
    assert bits.spade_ranks(1 << 51, house) == 1 << 9  # the ace of spades is the fourth spade there


def test_the_kernels_suicide_minimum_is_the_engines():
    for low in range(0, 8):
        rules = make_rules("partnership", suicide=True, min_team_bid=low)
        assert suicide_minimum(rules.min_team_bid) == engine_suicide_minimum(rules)


def test_a_hidden_hand_is_dealt_in_the_samples_not_read():
    state = new_game(make_rules("partnership", blind_nil=True, blind_margin=0, jokers=True), seed=3)
    seat = turn(state)
    v = view(state, seat)
    assert v["hand"] is None and v["legal"] == ["look"]
    position = position_of(v)[0]
    assert position["hidden"] and position["hand"] == 0
    assert position["n_unseen"] == 52 and position["out"] == state.rules.deck.cards
    other = replace(state, hands=tuple(reversed(state.hands)))  # another deal the seat cannot tell apart
    assert view(other, seat) == v
    assert decide(view(other, seat), "hard", 4) == decide(v, "hard", 4)


def blind_nil_analysis(scores: tuple[int, int], seed: int, **options) -> dict:
    """Hard's figures as the first bidder (seat 1, side 1) of a blind-nil game at ``scores``."""
    rules = make_rules("partnership", blind_nil=True, **options)
    state = replace(new_game(rules, seed=seed), scores=scores)
    assert turn(state) == 1 and view(state, 1)["legal_blind"] == [0]
    return hard.analysis(view(state, 1), seed)


EARLY = (200, 100)  # trailing by 100 with the game far from over
LATE = (440, 300)  # the other side reaches 500 this round unless this side makes up about 200 at once


@pytest.mark.parametrize("seed", range(4))
def test_hard_takes_blind_nil_when_only_it_can_catch_up(seed):
    options = {"nil_pass_cards": 1, "nil_pass_blind_only": True}  # a blind nil made about half the time
    assert blind_nil_analysis(EARLY, seed, **options)["move"] == {"look": True}
    assert blind_nil_analysis(LATE, seed, **options)["move"] == {"bid": 0, "blind": True}


@pytest.mark.parametrize("seed", range(4))
def test_a_blind_nils_worth_against_looking_grows_with_the_danger_of_losing(seed):
    def advantage(scores: tuple[int, int]) -> float:
        look, blind_nil = blind_nil_analysis(scores, seed)["candidates"]
        return blind_nil["value"] - look["value"]

    assert advantage(LATE) > advantage(EARLY)


def random_hand(rng: random.Random, deck: int) -> int:
    return sum(1 << c for c in rng.sample(list(cards_in(deck)), 13))


@pytest.mark.parametrize("count", [1, 2, 3])
def test_a_nil_bidder_passes_its_top_spades_first(count):
    rng = random.Random(count)
    for options in ({}, {"jokers": True, "deuces_high": True}):
        deck = make_rules("partnership", **options).deck.cards
        for _ in range(200):
            hand = random_hand(rng, deck)
            given = int(nil_pass(hand, count, True))
            assert given.bit_count() == count and given & ~hand == 0
            spades = sorted((c for c in cards_in(hand) if c >= 39), reverse=True)
            top_honours = [c for c in spades[:count] if c >= 48]  # the hand's highest spades from the jack up
            assert all(given >> c & 1 for c in top_honours)


@pytest.mark.parametrize("count", [1, 2, 3])
def test_a_nil_bidders_partner_keeps_its_spades_and_passes_low_side_cards(count):
    rng = random.Random(10 + count)
    deck = make_rules("partnership", jokers=True).deck.cards
    for _ in range(200):
        hand = random_hand(rng, deck)
        given = int(nil_pass(hand, count, False))
        side = [c for c in cards_in(hand) if c < 39]
        assert given & hand == given and given.bit_count() == count
        if len(side) >= count:
            assert all(c < 39 for c in cards_in(given))
            kept_low = min((c % 13 for c in side if not given >> c & 1), default=13)
            assert all(c % 13 <= kept_low for c in cards_in(given))


@pytest.mark.parametrize("count", [1, 2, 3])
def test_a_partner_short_of_side_cards_gives_them_all_then_its_lowest_spades(count):
    spades = [39 + r for r in range(12, -1, -1)]  # the ace first
    for side_cards in range(count):
        side = [5, 17][:side_cards]  # the 7 of clubs, the 6 of diamonds
        hand = mask_of(side + spades[: 13 - side_cards])
        given = int(nil_pass(hand, count, False))
        assert given.bit_count() == count and given & hand == given
        assert set(side) <= set(cards_in(given))
        given_spades = [c for c in cards_in(given) if c >= 39]
        kept_spades = [c for c in cards_in(hand & ~given) if c >= 39]
        assert max(given_spades) < min(kept_spades)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_partner_holding_spades_and_one_side_card_passes_legally(level):
    rules = make_rules("partnership", nil_pass_cards=3)
    state, seat, _ = next(
        (s, seat, v) for s, seat, v in passing_views(rules, range(40)) if s.bids[seat] != 0 and not any(s.passes)
    )
    deck = list(cards_in(rules.deck.cards))
    spades = [c for c in deck if c >= 39]
    others = [c for c in deck if c < 39]
    hands = [0, 0, 0, 0]
    hands[seat] = mask_of(spades[:12] + others[:1])
    rest = spades[12:] + others[1:]
    for k, other in enumerate(s for s in range(4) if s != seat):
        hands[other] = mask_of(rest[13 * k : 13 * (k + 1)])
    state = replace(state, hands=tuple(hands))
    move = move_of(decide(view(state, seat), level, 1), rules.deck)
    assert move in legal_moves(state, seat)


def passing_views(rules: Rules, seeds: range) -> list[tuple[GameState, int, dict]]:
    """Every passing turn's state, seat and view, normal bidding and passing, in the games of ``seeds``."""
    out = []
    for seed in seeds:
        state = new_game(rules, seed=seed)
        while state.phase == "bidding":
            seat = turn(state)
            state = apply(state, seat, move_of(decide(view(state, seat), "normal", seed), rules.deck))
        while state.phase == "passing":
            seat = turn(state)
            out.append((state, seat, view(state, seat)))
            state = apply(state, seat, move_of(decide(view(state, seat), "normal", seed), rules.deck))
    return out


def test_normal_passes_its_nil_pass_cards_through_the_view():
    rules = make_rules("partnership", suicide=True, nil_pass_cards=2, jokers=True)
    for state, seat, v in passing_views(rules, range(4)):
        given = move_of(decide(v, "normal", 1), rules.deck).cards
        assert given == int(nil_pass(state.hands[seat], 2, state.bids[seat] == 0))


def with_card(state: GameState, seat: int, card: int) -> GameState:
    """``state`` with ``card`` swapped into ``seat``'s hand for its lowest card (from whoever held it)."""
    holder = next(s for s in range(4) if state.hands[s] >> card & 1)
    if holder == seat:
        return state
    low = lowest_by_rank(state.hands[seat])
    hands = list(state.hands)
    hands[seat] ^= 1 << card | 1 << low
    hands[holder] ^= 1 << card | 1 << low
    return replace(state, hands=tuple(hands))


def test_the_hint_level_weighs_normals_choices_and_gives_a_nil_bidders_top_spade():
    rules = make_rules("partnership", suicide=True, nil_pass_cards=2, jokers=True, deuces_high=True)
    top = max(cards_in(rules.deck.cards))  # the Big Joker
    checked = 0
    for state, seat, _ in passing_views(rules, range(3)):
        if state.bids[seat] == 0 and not state.passes[(seat + 2) % 4]:  # its partner has not passed yet
            state = with_card(state, seat, top)
            hint = analyse(view(state, seat), 3)
            assert move_of(hint["move"], rules.deck).cards >> top & 1
            assert len(hint["candidates"]) == 15  # every pair among normal's first six choices
            checked += 1
    assert checked


HOUSE_TABLE = make_rules("house", blind_margin=0, suicide=True)  # every kind of decision comes up


@pytest.mark.parametrize("level", LEVELS)
def test_a_house_rules_decision_depends_only_on_what_the_seat_can_see(level):
    """Random positions of the house preset (hidden hands, the exchange, jokers): another deal the
    seat cannot tell apart (two unseen cards of one suit swapped between two other hands) gives the
    same view and the same decision."""
    rng = random.Random(31)
    compared = 0
    for i in range(25):
        state = play_randomly(new_game(HOUSE_TABLE, seed=i), rng.randrange(0, 45), rng)
        seat = turn(state)
        a, b = rng.sample([s for s in range(4) if s != seat], 2)
        spade = [c for c in cards_in(state.hands[a]) if c >= 39], [c for c in cards_in(state.hands[b]) if c >= 39]
        if not spade[0] or not spade[1]:
            continue
        hands = list(state.hands)
        swap = 1 << rng.choice(spade[0]) | 1 << rng.choice(spade[1])
        hands[a] ^= swap
        hands[b] ^= swap
        other = replace(state, hands=tuple(hands))
        assert view(other, seat) == view(state, seat)
        assert decide(view(other, seat), level, i) == decide(view(state, seat), level, i)
        compared += 1
    assert compared > 10
