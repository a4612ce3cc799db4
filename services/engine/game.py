"""Moves: what is legal now and the one transition, :func:`apply`.

:func:`apply_with_events` is the same transition that also reports what
happened (:mod:`services.engine.events`): each rule below appends its event
as it applies, to a list that :func:`apply` leaves out (``None``), so a
caller that wants only the state (the AI, the benchmarks) pays nothing for
the reporting.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations

from . import errors as E
from .bidding import bid_error, legal_bids
from .cards import bit, cards_in, mask_of
from .events import (
    BidMade,
    CardPlayed,
    CardsPassed,
    Event,
    ExchangeDone,
    GameOver,
    HandShown,
    RoundScored,
    RoundStarted,
    TrickWon,
)
from .play import legal_plays, play_error
from .scoring import game_winner, score_round
from .state import (
    SEATS,
    TRICKS_PER_ROUND,
    GameState,
    RoundRecord,
    dealer_of,
    dealt_hands,
    exchange,
    first_seat,
    hand_hidden,
    partner_seat,
    passing_seats,
    replay_tricks,
    start_round,
    turn,
)


@dataclass(frozen=True, slots=True)
class Bid:
    tricks: int  # 0 is nil
    blind: bool = False  # made before seeing the hand: blind nil, or a blind bid


@dataclass(frozen=True, slots=True)
class Look:
    """A seat that may bid blind looks at its hand instead, then bids as usual."""


@dataclass(frozen=True, slots=True)
class Pass:
    """The cards (a card mask) a seat gives its partner in the nil exchange."""

    cards: int


@dataclass(frozen=True, slots=True)
class Play:
    card: int  # card index, see services.engine.cards


Move = Bid | Look | Pass | Play
_PHASE_OF_MOVE: dict[type, str] = {Bid: "bidding", Look: "bidding", Pass: "passing", Play: "playing"}


def _blind_allowed(state: GameState, seat: int, tricks: int) -> bool:
    """Whether ``seat`` may bid ``tricks`` blind now (the bid's number judged apart)."""
    if not hand_hidden(state, seat):
        return False
    return state.rules.blind_nil if tricks == 0 else state.rules.blind_bids


def legal_moves(state: GameState, seat: int) -> list[Move]:
    """Every move ``seat`` may make now; empty when it is not its turn.

    A seat whose hand is still hidden (it may bid blind) has ``Look()`` and its
    legal blind bids; in the exchange, every set of ``nil_pass_cards`` cards of
    the hand (up to 286) is a move."""
    if turn(state) != seat:
        return []
    if state.phase == "bidding":
        bids = legal_bids(state.rules, state.bids, seat)
        if hand_hidden(state, seat):
            return [Look(), *(Bid(b, blind=True) for b in bids if _blind_allowed(state, seat, b))]
        return [Bid(b) for b in bids]
    if state.phase == "passing":
        hand = list(cards_in(state.hands[seat]))
        return [Pass(mask_of(chosen)) for chosen in combinations(hand, state.rules.nil_pass_cards)]
    return [Play(c) for c in cards_in(legal_plays(state, seat))]


def move_error(state: GameState, seat: int, move: Move) -> str | None:
    """Why ``seat`` may not make ``move`` now (an error code), or None."""
    if state.phase == "game_over":
        return E.GAME_OVER
    if _PHASE_OF_MOVE[type(move)] != state.phase:
        return E.WRONG_PHASE
    if turn(state) != seat:
        return E.NOT_YOUR_TURN
    if isinstance(move, Bid):
        if move.blind and not _blind_allowed(state, seat, move.tricks):
            return E.BLIND_NOT_ALLOWED
        if not move.blind and hand_hidden(state, seat):
            return E.HAND_NOT_SEEN
        return bid_error(state.rules, state.bids, seat, move.tricks)
    if isinstance(move, Look):
        return None if hand_hidden(state, seat) else E.BLIND_NOT_ALLOWED
    if isinstance(move, Pass):
        fits = move.cards & ~state.hands[seat] == 0 and move.cards.bit_count() == state.rules.nil_pass_cards
        return None if fits else E.WRONG_PASS
    return play_error(state, seat, move.card)


def apply(state: GameState, seat: int, move: Move) -> GameState:
    """The state after ``seat`` makes ``move``; raises :class:`EngineError`."""
    code = move_error(state, seat, move)
    if code is not None:
        raise E.EngineError(code)
    return _APPLY[type(move)](state, seat, move, None)


def apply_with_events(state: GameState, seat: int, move: Move) -> tuple[GameState, tuple[Event, ...]]:
    """:func:`apply`, and the events the move caused, in the order they happened."""
    code = move_error(state, seat, move)
    if code is not None:
        raise E.EngineError(code)
    happened: list[Event] = []
    state = _APPLY[type(move)](state, seat, move, happened)
    return state, tuple(happened)


def _bid(state: GameState, seat: int, move: Bid, happened: list[Event] | None) -> GameState:
    if happened is not None:
        happened.append(BidMade(seat, move.tricks, move.blind))
        if move.blind:
            happened.append(HandShown(seat, state.hands[seat]))
    bids = state.bids[:seat] + (move.tricks,) + state.bids[seat + 1 :]
    if move.blind:
        state = replace(state, blind=state.blind[:seat] + (True,) + state.blind[seat + 1 :])
    if any(b is None for b in bids):
        return replace(state, bids=bids)
    passing = passing_seats(state.rules, bids, state.blind, first_seat(state.round))
    return replace(state, bids=bids, phase="passing" if passing else "playing")


def _look(state: GameState, seat: int, move: Look, happened: list[Event] | None) -> GameState:
    if happened is not None:
        happened.append(HandShown(seat, state.hands[seat]))
    return replace(state, looked=state.looked[:seat] + (True,) + state.looked[seat + 1 :])


def _pass(state: GameState, seat: int, move: Pass, happened: list[Event] | None) -> GameState:
    """Set the cards aside for the partner; the last passing seat's choice delivers every seat's."""
    if happened is not None:
        happened.append(CardsPassed(seat, partner_seat(seat), move.cards))
    hands = state.hands[:seat] + (state.hands[seat] & ~move.cards,) + state.hands[seat + 1 :]
    passes = state.passes[:seat] + (move.cards,) + state.passes[seat + 1 :]
    state = replace(state, hands=hands, passes=passes)
    if turn(state) is not None:
        return state
    state = replace(state, hands=exchange(state.hands, state.passes), phase="playing")
    if happened is not None:
        happened.append(ExchangeDone(state.hands))
    return state


def _play_move(state: GameState, seat: int, move: Play, happened: list[Event] | None) -> GameState:
    return _play(state, seat, move.card, happened)


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


_APPLY = {Bid: _bid, Look: _look, Pass: _pass, Play: _play_move}


def finish_round(state: GameState, happened: list[Event] | None = None) -> GameState:
    """Score the round just played, then end the game or deal the next round
    (reporting each to ``happened``, when given)."""
    bids = tuple(b for b in state.bids if b is not None)
    blind = state.blind if any(state.blind) else ()
    passes = state.passes if any(state.passes) else ()
    result = score_round(state.rules, bids, state.tricks_won, state.bags, blind)
    scores = tuple(s + p for s, p in zip(state.scores, result.points, strict=True))
    record = RoundRecord(
        bids=bids,
        plays=state.plays,
        points=result.points,
        bag_penalties=result.bag_penalties,
        scores=scores,
        bags=result.bags,
        blind=blind,
        passes=passes,
    )
    state = replace(state, scores=scores, bags=result.bags, history=state.history + (record,))
    if happened is not None:
        happened.append(RoundScored(state.round, state.tricks_won, record))
    side = game_winner(state.rules, scores, len(state.history))
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
    so far go back to the hands that held them, and the cards of the nil
    exchange to their givers, so it is the deal at any point of the round.
    ``hidden`` names the seats that may bid blind and have not yet seen their hand."""
    return RoundStarted(state.round, dealer_of(state.round), first_seat(state.round), dealt(state), hidden_seats(state))


def hidden_seats(state: GameState) -> tuple[int, ...]:
    """The seats whose own hand is still hidden from them (they may bid blind)."""
    if not state.rules.blind_decisions or state.phase != "bidding":
        return ()
    return tuple(seat for seat in range(SEATS) if hand_hidden(state, seat))


def dealt(state: GameState) -> tuple[int, ...]:
    """The current round's hands as dealt."""
    hands = state.hands
    if state.plays:
        played = dealt_hands(first_seat(state.round), state.plays)
        hands = tuple(h | p for h, p in zip(hands, played, strict=True))
    if any(state.passes):
        if state.phase == "passing":  # set aside, not yet delivered
            return tuple(h | p for h, p in zip(hands, state.passes, strict=True))
        return tuple(hands[s] & ~state.passes[partner_seat(s)] | state.passes[s] for s in range(SEATS))
    return hands
