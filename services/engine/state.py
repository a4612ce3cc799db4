"""The game state: plain, immutable data, and the facts derived from it.

A :class:`GameState` holds only what can't be derived: the current hands, the
bids, the cards played this round in order, the trick leader, the tricks each
seat has won, the scores, bags, finished rounds and the winner.  The dealer,
whose turn it is, the current trick and whether spades are broken are small
functions of it.  Moves never mutate a state; :func:`services.engine.game.apply`
returns a new one.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from typing import Literal

from .cards import CARDS_PER_SUIT, DECK_SIZE, SPADES, bit, mask_of, trick_winner_card
from .rules import Rules

FIRST_SPADE = SPADES * CARDS_PER_SUIT  # the 2 of spades' index

Phase = Literal["bidding", "playing", "game_over"]
SEATS = 4
TRICKS_PER_ROUND = 13
Seats4 = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A finished round: enough to replay it and to show its hand record."""

    bids: tuple[int, ...]
    plays: tuple[int, ...]  # all 52 cards in play order
    points: tuple[int, ...]  # per side, bag penalties included
    bag_penalties: tuple[int, ...]  # per side: how many times the penalty hit
    scores: tuple[int, ...]  # per side, after the round
    bags: tuple[int, ...]  # per side, after the round


@dataclass(frozen=True, slots=True)
class GameState:
    rules: Rules
    seed: int  # secret: never part of any view
    round: int  # 1-based
    phase: Phase
    hands: tuple[int, ...]  # 4 card masks
    bids: tuple[int | None, ...]
    plays: tuple[int, ...]  # this round's cards in play order
    leader: int  # the seat leading the current trick
    tricks_won: tuple[int, ...]
    scores: tuple[int, ...]  # per side
    bags: tuple[int, ...]  # per side
    history: tuple[RoundRecord, ...] = ()
    winner: tuple[int, ...] | None = None  # the winning seats, once over


def new_seed() -> int:
    """An unpredictable 63-bit seed for a game nobody should be able to foresee."""
    return secrets.randbits(63)


def deal(seed: int, round_no: int) -> tuple[int, ...]:
    """The four 13-card hands of a round, uniformly at random from ``seed``.

    Uses only ``Random.random`` (whose sequence Python guarantees across
    versions) in a Fisher-Yates shuffle, so stored seeds replay forever.
    """
    rng = random.Random(f"spades:{seed}:{round_no}")
    deck = list(range(DECK_SIZE))
    for i in range(DECK_SIZE - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(mask_of(deck[s * 13 : s * 13 + 13]) for s in range(SEATS))


def dealer_of(round_no: int) -> int:
    """Seat 0 deals round 1; the deal moves one seat left each round."""
    return (round_no - 1) % SEATS


def first_seat(round_no: int) -> int:
    """The seat left of the dealer bids first and leads the first trick."""
    return (dealer_of(round_no) + 1) % SEATS


def start_round(state: GameState, round_no: int) -> GameState:
    """``state`` moved to the bidding of round ``round_no`` with a fresh deal."""
    return GameState(
        rules=state.rules,
        seed=state.seed,
        round=round_no,
        phase="bidding",
        hands=deal(state.seed, round_no),
        bids=(None,) * SEATS,
        plays=(),
        leader=first_seat(round_no),
        tricks_won=(0,) * SEATS,
        scores=state.scores,
        bags=state.bags,
        history=state.history,
        winner=None,
    )


def new_game(rules: Rules, seed: int | None = None) -> GameState:
    """A game in the bidding of round 1; ``seed`` makes it reproducible."""
    blank = GameState(
        rules=rules,
        seed=new_seed() if seed is None else seed,
        round=1,
        phase="bidding",
        hands=(0,) * SEATS,
        bids=(None,) * SEATS,
        plays=(),
        leader=0,
        tricks_won=(0,) * SEATS,
        scores=(0,) * rules.sides,
        bags=(0,) * rules.sides,
    )
    return start_round(blank, 1)


def current_trick(state: GameState) -> tuple[int, ...]:
    """The cards of the trick in progress, in play order (may be empty)."""
    return state.plays[len(state.plays) - len(state.plays) % SEATS :]


def completed_plays(state: GameState) -> tuple[int, ...]:
    return state.plays[: len(state.plays) - len(state.plays) % SEATS]


def turn(state: GameState) -> int | None:
    """The seat to move, or None once the game is over."""
    if state.phase == "bidding":
        made = sum(b is not None for b in state.bids)
        return (first_seat(state.round) + made) % SEATS
    if state.phase == "playing":
        return (state.leader + len(current_trick(state))) % SEATS
    return None


def spades_broken(state: GameState) -> bool:
    """A spade has been played on an earlier trick of this round."""
    completed = completed_plays(state)
    return bool(completed) and max(completed) >= FIRST_SPADE  # spades have the highest indices


def replay_tricks(first_leader: int, plays: tuple[int, ...]) -> list[tuple[int, tuple[int, ...], int | None]]:
    """``(leader, cards, winner)`` for each trick in ``plays``; the winner of
    an unfinished trick is None."""
    tricks = []
    leader = first_leader
    for start in range(0, len(plays), SEATS):
        cards = plays[start : start + SEATS]
        winner = None
        if len(cards) == SEATS:
            best = trick_winner_card(mask_of(cards), cards[0] // 13)
            winner = (leader + cards.index(best)) % SEATS
        tricks.append((leader, cards, winner))
        if winner is not None:
            leader = winner
    return tricks


def last_completed_trick(state: GameState) -> tuple[int, tuple[int, ...], int] | None:
    """This round's most recently completed trick as ``(leader, cards, winner)``
    (as :func:`replay_tricks` gives it), without replaying the round: its
    winner is the seat leading now, and the winning card's place in the trick
    tells who led it.  None before the round's first trick is complete."""
    done = len(state.plays) - len(state.plays) % SEATS
    if not done:
        return None
    cards = state.plays[done - SEATS : done]
    best = trick_winner_card(mask_of(cards), cards[0] // CARDS_PER_SUIT)
    return (state.leader - cards.index(best)) % SEATS, cards, state.leader


def dealt_hands(first_leader: int, plays: tuple[int, ...]) -> tuple[int, ...]:
    """The hands of a finished round, recovered from who played what."""
    hands = [0] * SEATS
    for leader, cards, _ in replay_tricks(first_leader, plays):
        for offset, card in enumerate(cards):
            hands[(leader + offset) % SEATS] |= bit(card)
    return tuple(hands)
