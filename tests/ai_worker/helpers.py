"""Hand-built and random positions for the AI tests."""

from __future__ import annotations

import random
from dataclasses import replace

from services.engine import (
    STANDARD_DECK,
    Bid,
    Deck,
    GameState,
    Look,
    Move,
    Pass,
    Play,
    make_rules,
    new_game,
    parse_card,
    turn,
    view,
)
from services.engine.cards import FULL_DECK, cards_in, mask_of
from services.engine.rules import Rules
from testkit.random_play import play_randomly


def mask(*codes: str) -> int:
    return mask_of(parse_card(c) for c in codes)


def playing_position(
    hand: list[str],
    *,
    me: int = 0,
    trick: tuple[str, ...] = (),
    bids: tuple[int, int, int, int] = (3, 3, 3, 3),
    won: tuple[int, int, int, int] = (0, 0, 0, 0),
    rules: Rules | None = None,
    spades_broken: bool = False,
    shown: tuple[str, ...] = (),
    fill_seed: int = 0,
) -> GameState:
    """A round-1 state in play where seat ``me`` holds ``hand`` and is to
    play to ``trick`` (cards played by the seats before it, in order).

    A hand of ``13 - k`` cards means ``k`` tricks were completed: they are
    made of four cards of one suit each (so they reveal no void), one of them
    spades when ``spades_broken``.  The other cards are dealt at random
    (``fill_seed``) to the other seats.  ``shown`` names the completed
    tricks' cards instead (4 per trick, in play order).  ``won`` is taken as given (views only
    report it)."""
    rules = rules or make_rules("individual")
    leader = (me - len(trick)) % 4
    size = len(hand)
    done = 13 - size
    assert done >= (1 if spades_broken else 0)
    used = mask(*hand) | mask(*trick)
    free = list(cards_in(FULL_DECK & ~used))
    suits = ([3] if spades_broken else []) + [0, 1, 2, 3] * 13
    prefix: list[int] = [parse_card(c) for c in shown]
    for suit in suits:
        if len(prefix) == 4 * done:
            break
        group = [c for c in free if c // 13 == suit and c not in prefix][:4]
        if len(group) == 4:
            prefix += group
    assert len(prefix) == 4 * done
    rest = [c for c in free if c not in prefix]
    random.Random(fill_seed).shuffle(rest)
    hands = [0, 0, 0, 0]
    hands[me] = mask(*hand)
    trick_seats = [(leader + i) % 4 for i in range(len(trick))]
    for seat in range(4):
        if seat != me:
            need = size - (1 if seat in trick_seats else 0)
            hands[seat] = mask_of(rest[:need])
            rest = rest[need:]
    assert not rest
    plays = tuple(prefix) + tuple(parse_card(c) for c in trick)
    base = new_game(rules, seed=1)
    return replace(base, phase="playing", hands=tuple(hands), bids=bids, plays=plays, leader=leader, tricks_won=won)


def random_positions(count: int, seed: int) -> list[tuple[GameState, dict]]:
    """``count`` random positions (bidding and playing, both presets) with the
    view of the seat to move."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        preset = "partnership" if i % 2 else "individual"
        state = new_game(make_rules(preset, spades_must_be_broken=bool(i % 3)), seed=rng.randrange(10**9))
        state = play_randomly(state, rng.randrange(0, 55), rng)
        seat = turn(state)
        out.append((state, view(state, seat)))
    return out


def endgame_views(count: int, cards_left: int, seed: int) -> list[dict]:
    """``count`` views of the seat to play in partnership rounds played at random, with ``cards_left``
    cards in hand and more than one legal card."""
    rng = random.Random(seed)
    out: list[dict] = []
    while len(out) < count:
        state = new_game(make_rules("partnership"), seed=rng.randrange(10**9))
        state = play_randomly(state, 4 + 4 * (13 - cards_left) + rng.randrange(4), rng)
        seat_view = view(state, turn(state))
        if len(seat_view["legal"]) > 1:
            out.append(seat_view)
    return out


def move_of(decision: dict, deck: Deck = STANDARD_DECK) -> Move:
    """The engine move of a level's decision (its cards read in the game's ``deck``)."""
    if "card" in decision:
        return Play(deck.parse(decision["card"]))
    if "pass" in decision:
        return Pass(mask_of(deck.parse(code) for code in decision["pass"]))
    if decision.get("look"):
        return Look()
    return Bid(decision["bid"], blind=decision.get("blind", False))


def bidding_view(hand_codes: list[str] | None = None, preset: str = "individual", seed: int = 4, **rules):
    """The view of the first bidder (seat 1), optionally with its hand swapped for ``hand_codes``."""
    state = new_game(make_rules(preset, **rules), seed=seed)
    if hand_codes is not None:
        mine = mask(*hand_codes)
        rest = [c for c in range(52) if not mine >> c & 1]
        hands = [sum(1 << c for c in rest[i * 13 : i * 13 + 13]) for i in range(3)]
        hands.insert(1, mine)
        state = replace(state, hands=tuple(hands))
    return state, view(state, turn(state))
