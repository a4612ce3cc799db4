"""Deals: a game whose seed the server picks deals from a 256-bit secret through SHAKE-256, the same
secret always deals the same rounds, every deal is a fair split of the deck, and a game stored with an
integer seed (every game stored before secrets, and every chosen seed) deals exactly as it always did.

The statistical checks run on fixed inputs, so they are deterministic: a change that biases the shuffle
fails them every time, and nothing here can fail by chance."""

from __future__ import annotations

import hashlib
import itertools
import json
from pathlib import Path

import pytest

from services.engine import SchemaError, from_json, make_rules, new_game, to_json, to_json_parts
from services.engine.cards import codes
from services.engine.dealing import _shake_shuffle, deal, is_secret
from services.engine.state import dealt_hands, first_seat

STORED = json.loads((Path(__file__).parent / "data" / "server_seeded_game.json").read_text())
DECKS = {
    "standard": make_rules("partnership").deck,
    "jokers": make_rules("house", jokers=True).deck,
    "deuces high": make_rules("house", deuces_high=True).deck,
}


def fixed_secret(i: int) -> str:
    return hashlib.sha256(f"fixed secret {i}".encode()).hexdigest()


def hands_codes(hands: tuple[int, ...]) -> list[str]:
    return [" ".join(codes(hand)) for hand in hands]


def chi_square(counts: list[int], expected: float) -> float:
    return sum((count - expected) ** 2 / expected for count in counts)


# ---- the secret -------------------------------------------------------------------


def test_a_game_whose_seed_the_server_picks_deals_from_256_secret_bits_stored_as_schema_2():
    state = new_game(make_rules("partnership"))
    assert is_secret(state.seed) and len(bytes.fromhex(state.seed)) * 8 == 256
    assert state.hands == deal(state.seed, 1)
    document = json.loads(to_json(state))
    assert document["schema"] == 2 and document["seed"] == state.seed
    assert from_json(to_json(state)) == state
    assert len({new_game(make_rules("partnership")).seed for _ in range(50)}) == 50


def test_a_document_whose_seed_has_the_wrong_form_is_refused_without_showing_it():
    state = new_game(make_rules("partnership"))
    for schema, seed in ((2, state.seed.upper()), (2, state.seed[:-2]), (2, 7), (1, state.seed), (1, True)):
        document = json.loads(to_json(state))
        document["schema"], document["seed"] = schema, seed
        with pytest.raises(SchemaError) as refused:
            from_json(json.dumps(document))
        assert str(seed) not in str(refused.value)


def test_the_same_secret_always_deals_the_same_rounds_and_each_round_its_own():
    secret = hashlib.sha256(b"known answer").hexdigest()
    # Pinned: a change here would re-deal every stored game's next round.
    assert hands_codes(deal(secret, 1)) == [
        "2C 2D 6D 8D 3H 4H TH AH 5S 6S 8S QS KS",
        "6C JC QC 3D 5D QD 8H 9H 2S 3S 4S 9S TS",
        "3C 4C 5C 8C KC 7D KD AD 5H 6H JH 7S AS",
        "7C 9C TC AC 4D 9D TD JD 2H 7H QH KH JS",
    ]
    assert deal(secret, 2) == deal(secret, 2) != deal(secret, 1)
    assert deal(fixed_secret(1), 1) != deal(fixed_secret(2), 1)
    game = new_game(make_rules("partnership"), seed=secret)
    assert game.hands == deal(secret, 1) and new_game(make_rules("partnership"), seed=secret) == game


@pytest.mark.parametrize("deck", DECKS.values(), ids=DECKS.keys())
def test_every_deal_splits_the_whole_deck_into_four_hands_of_13(deck):
    for i in range(200):
        hands = deal(fixed_secret(i), 1 + i % 7, deck.cards)
        assert [bin(hand).count("1") for hand in hands] == [13] * 4
        assert hands[0] | hands[1] | hands[2] | hands[3] == deck.cards
        assert sum(hands) == deck.cards  # disjoint: no card in two hands


def test_every_card_lands_in_every_seat_about_equally_often():
    deals = 2000
    counts = [[0] * 4 for _ in range(52)]
    for i in range(deals):
        for seat, hand in enumerate(deal(fixed_secret(i), 1)):
            for card in range(52):
                counts[card][seat] += hand >> card & 1
    assert min(min(row) for row in counts) > 0
    # 156 degrees of freedom: a fair deal gives about 156 (standard deviation about 18)
    assert chi_square([c for row in counts for c in row], deals / 4) < 260


def test_the_shuffle_gives_every_order_of_a_small_deck_equally_often():
    orders = list(itertools.permutations(range(4)))
    runs = 200 * len(orders)
    seen = dict.fromkeys(orders, 0)
    for i in range(runs):
        deck = list(range(4))
        _shake_shuffle(deck, fixed_secret(i), 1)
        seen[tuple(deck)] += 1
    assert min(seen.values()) > 0
    assert chi_square(list(seen.values()), runs / len(orders)) < 60  # 23 degrees of freedom


# ---- integer seeds: every game stored before secrets, and every chosen seed --------------


def test_a_game_stored_before_secrets_loads_unchanged_and_deals_as_it_did():
    state = from_json(STORED["state"], STORED["rounds"])
    assert isinstance(state.seed, int) and json.loads(STORED["state"])["schema"] == 1
    assert to_json_parts(state) == (STORED["state"], STORED["rounds"])  # written back byte for byte
    deck = state.rules.deck.cards
    for round_no, hands in STORED["deals"].items():
        assert hands_codes(deal(state.seed, int(round_no), deck)) == hands
    assert hands_codes(dealt_hands(first_seat(1), state.history[0].plays)) == STORED["deals"]["1"]
    assert state.round == 2 and state.plays  # round 2 in play: its hands less the cards played are held
    played = dealt_hands(first_seat(2), state.plays)
    assert hands_codes(tuple(state.hands[s] | played[s] for s in range(4))) == STORED["deals"]["2"]


def test_a_chosen_seed_deals_as_it_always_did():
    chosen = STORED["client_seed"]
    for round_no, hands in chosen["deals"].items():
        assert hands_codes(deal(chosen["seed"], int(round_no))) == hands
    state = new_game(make_rules("partnership"), seed=chosen["seed"])
    assert hands_codes(state.hands) == chosen["deals"]["1"]
    assert json.loads(to_json(state))["schema"] == 1
