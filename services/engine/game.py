"""Moves: what is legal now and the one transition, :func:`apply`.

:func:`apply_with_events` is the same transition that also reports what
happened (:mod:`services.engine.events`): each rule below appends its event
as it applies, to a list that :func:`apply` leaves out (``None``), so a
caller that wants only the state (the AI, the benchmarks) pays nothing for
the reporting.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import errors as E
from .bidding import bid_error, legal_bids
from .cards import bit, cards_in
from .events import BidMade, CardPlayed, Event, GameOver, RoundScored, RoundStarted, TrickWon
from .play import legal_plays, play_error
from .scoring import game_winner, score_round
from .state import (
    SEATS,
    TRICKS_PER_ROUND,
    GameState,
    RoundRecord,
    dealer_of,
    dealt_hands,
    first_seat,
    replay_tricks,
    start_round,
    turn,
)


@dataclass(frozen=True, slots=True)
class Bid:
    tricks: int  # 0 is nil


@dataclass(frozen=True, slots=True)
class Play:
    card: int  # card index, see services.engine.cards


Move = Bid | Play


def legal_moves(state: GameState, seat: int) -> list[Move]:
    """Every move ``seat`` may make now; empty when it is not its turn."""
    if turn(state) != seat:
        return []
    if state.phase == "bidding":
        return [Bid(b) for b in legal_bids(state.rules, state.bids, seat)]
    return [Play(c) for c in cards_in(legal_plays(state, seat))]


def move_error(state: GameState, seat: int, move: Move) -> str | None:
    """Why ``seat`` may not make ``move`` now (an error code), or None."""
    if state.phase == "game_over":
        return E.GAME_OVER
    if isinstance(move, Bid) != (state.phase == "bidding"):
        return E.WRONG_PHASE
    if turn(state) != seat:
        return E.NOT_YOUR_TURN
    if isinstance(move, Bid):
        return bid_error(state.rules, state.bids, seat, move.tricks)
    return play_error(state, seat, move.card)


def apply(state: GameState, seat: int, move: Move) -> GameState:
    """The state after ``seat`` makes ``move``; raises :class:`EngineError`."""
    code = move_error(state, seat, move)
    if code is not None:
        raise E.EngineError(code)
    if isinstance(move, Bid):
        return _bid(state, seat, move.tricks, None)
    return _play(state, seat, move.card, None)


def apply_with_events(state: GameState, seat: int, move: Move) -> tuple[GameState, tuple[Event, ...]]:
    """:func:`apply`, and the events the move caused, in the order they happened."""
    code = move_error(state, seat, move)
    if code is not None:
        raise E.EngineError(code)
    happened: list[Event] = []
    if isinstance(move, Bid):
        state = _bid(state, seat, move.tricks, happened)
    else:
        state = _play(state, seat, move.card, happened)
    return state, tuple(happened)


def _bid(state: GameState, seat: int, tricks: int, happened: list[Event] | None) -> GameState:
    if happened is not None:
        happened.append(BidMade(seat, tricks))
    bids = state.bids[:seat] + (tricks,) + state.bids[seat + 1 :]
    phase = "playing" if all(b is not None for b in bids) else "bidding"
    return replace(state, bids=bids, phase=phase)


def _play(state: GameState, seat: int, card: int, happened: list[Event] | None) -> GameState:
    if happened is not None:
        happened.append(CardPlayed(seat, card))
    hands = state.hands[:seat] + (state.hands[seat] & ~bit(card),) + state.hands[seat + 1 :]
    state = replace(state, hands=hands, plays=state.plays + (card,))
    if len(state.plays) % SEATS:
        return state
    leader, cards, winner = replay_tricks(state.leader, state.plays[-SEATS:])[0]
    won = state.tricks_won[:winner] + (state.tricks_won[winner] + 1,) + state.tricks_won[winner + 1 :]
    state = replace(state, leader=winner, tricks_won=won)
    if happened is not None:
        happened.append(TrickWon(leader, cards, winner))
    if len(state.plays) == SEATS * TRICKS_PER_ROUND:
        return finish_round(state, happened)
    return state


def finish_round(state: GameState, happened: list[Event] | None = None) -> GameState:
    """Score the round just played, then end the game or deal the next round
    (reporting each to ``happened``, when given)."""
    bids = tuple(b for b in state.bids if b is not None)
    result = score_round(state.rules, bids, state.tricks_won, state.bags)
    scores = tuple(s + p for s, p in zip(state.scores, result.points, strict=True))
    record = RoundRecord(
        bids=bids,
        plays=state.plays,
        points=result.points,
        bag_penalties=result.bag_penalties,
        scores=scores,
        bags=result.bags,
    )
    state = replace(state, scores=scores, bags=result.bags, history=state.history + (record,))
    if happened is not None:
        happened.append(RoundScored(state.round, state.tricks_won, record))
    side = game_winner(state.rules, scores)
    if side is None:
        state = start_round(state, state.round + 1)
        if happened is not None:
            happened.append(round_started(state))
        return state
    winner = state.rules.seats_of(side)
    if happened is not None:
        happened.append(GameOver(winner, scores))
    return replace(state, phase="game_over", winner=winner)


def round_started(state: GameState) -> RoundStarted:
    """The current round's deal, as :func:`apply_with_events` reports a round it starts.

    No move starts a game's first round: this is how :func:`new_game`'s deal is
    reported (the API logs it when the last seat is taken).  The cards played
    so far go back to the hands that held them, so it is the deal at any point
    of the round."""
    hands = state.hands
    if state.plays:
        played = dealt_hands(first_seat(state.round), state.plays)
        hands = tuple(h | p for h, p in zip(hands, played, strict=True))
    return RoundStarted(state.round, dealer_of(state.round), first_seat(state.round), hands)
