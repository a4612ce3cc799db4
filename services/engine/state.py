"""The game state: plain, immutable data, and the facts derived from it.

A :class:`GameState` holds only what can't be derived: the current hands, the
bids, the cards played this round in order, the trick leader, the tricks each
seat has won, the scores, bags, finished rounds and the winner.  The dealer,
whose turn it is, the current trick and whether spades are broken are small
functions of it.  Moves never mutate a state; :func:`services.engine.game.apply`
returns a new one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .cards import CARDS_PER_SUIT, SPADES, SUIT_OF, bit, mask_of, trick_winner_card
from .dealing import Seed, deal, new_secret
from .rules import Rules

FIRST_SPADE = SPADES * CARDS_PER_SUIT  # the lowest spade index: every higher index is a spade too

Phase = Literal["bidding", "passing", "playing", "game_over"]
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
    blind: tuple[bool, ...] = ()  # per seat: bid blind (empty when no bid was)
    passes: tuple[int, ...] = ()  # per seat: the cards it gave in the nil exchange (empty when none)


@dataclass(frozen=True, slots=True)
class GameState:
    rules: Rules
    seed: Seed  # never part of any view: a secret, or a chosen integer (services.engine.dealing)
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
    # House rules (all default when off): which bids were blind, which seats have
    # looked at a hand they could have bid blind on, the cards each seat gave in the
    # nil exchange (set aside until every passing seat has chosen).
    blind: tuple[bool, ...] = (False,) * 4
    looked: tuple[bool, ...] = (False,) * 4
    passes: tuple[int, ...] = (0,) * 4


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
        hands=deal(state.seed, round_no, state.rules.deck.cards),
        bids=(None,) * SEATS,
        plays=(),
        leader=first_seat(round_no),
        tricks_won=(0,) * SEATS,
        scores=state.scores,
        bags=state.bags,
        history=state.history,
        winner=None,
    )


def blind_eligible(state: GameState, seat: int) -> bool:
    """Whether ``seat`` may decide blind this round: blind nil or blind bids are on
    and its side trails the best other side by at least ``blind_margin``
    (scores don't change during a round, so this holds for the whole round)."""
    rules = state.rules
    if not rules.blind_decisions:
        return False
    side = rules.side_of(seat)
    best_other = max(score for other, score in enumerate(state.scores) if other != side)
    return best_other - state.scores[side] >= rules.blind_margin


def hand_hidden(state: GameState, seat: int) -> bool:
    """Whether ``seat``'s own hand is still hidden from it: it may decide blind
    and has neither looked nor bid."""
    return (
        state.phase == "bidding" and state.bids[seat] is None and not state.looked[seat] and blind_eligible(state, seat)
    )


def passing_seats(rules: Rules, bids: tuple[int | None, ...], blind: tuple[bool, ...], first: int) -> tuple[int, ...]:
    """The seats that exchange cards after the bids, in bidding order from
    ``first``: both partners of every side with a nil bidder (a blind nil
    bidder with ``nil_pass_blind_only``); empty without the exchange."""
    if not rules.nil_pass_cards:
        return ()
    triggering = {s for s in range(SEATS) if bids[s] == 0 and (blind[s] or not rules.nil_pass_blind_only)}
    sides = {rules.side_of(s) for s in triggering}
    order = [(first + i) % SEATS for i in range(SEATS)]
    return tuple(s for s in order if rules.side_of(s) in sides)


def partner_seat(seat: int) -> int:
    return (seat + 2) % SEATS


def exchange(hands: tuple[int, ...], passes: tuple[int, ...]) -> tuple[int, ...]:
    """The hands after the set-aside cards reach the partners they were given to."""
    return tuple(hands[s] | passes[partner_seat(s)] for s in range(SEATS))


def new_game(rules: Rules, seed: Seed | None = None) -> GameState:
    """A game in the bidding of round 1, dealt from a fresh secret; a chosen ``seed`` makes it reproducible."""
    blank = GameState(
        rules=rules,
        seed=new_secret() if seed is None else seed,
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
    if state.phase == "passing":
        for seat in passing_seats(state.rules, state.bids, state.blind, first_seat(state.round)):
            if not state.passes[seat]:
                return seat
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
            best = trick_winner_card(mask_of(cards), SUIT_OF[cards[0]])
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
    best = trick_winner_card(mask_of(cards), SUIT_OF[cards[0]])
    return (state.leader - cards.index(best)) % SEATS, cards, state.leader


def dealt_hands(first_leader: int, plays: tuple[int, ...], passes: tuple[int, ...] = ()) -> tuple[int, ...]:
    """The hands of a finished round as dealt, recovered from who played what
    and, with the nil exchange, what each seat gave (``passes``)."""
    hands = [0] * SEATS
    for leader, cards, _ in replay_tricks(first_leader, plays):
        for offset, card in enumerate(cards):
            hands[(leader + offset) % SEATS] |= bit(card)
    if passes:
        hands = [hands[s] & ~passes[partner_seat(s)] | passes[s] for s in range(SEATS)]
    return tuple(hands)
