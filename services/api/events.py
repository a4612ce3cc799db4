"""The game's event log entries: what each committed change appends.

Events carry the version they belong to and a per-game ``seq``; a round's
dealt hands go under ``private`` per seat and are merged in only for that
seat (:func:`visible_event`), so the log can be read by anyone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from services.engine import (
    Bid,
    BidMade,
    CardPlayed,
    Event,
    GameOver,
    GameState,
    Play,
    RoundScored,
    RoundStarted,
    TrickWon,
    card_code,
)
from services.engine.cards import codes
from services.engine.state import dealer_of, first_seat
from services.engine.views import last_trick, trick_view
from services.engine.views import round_view as round_json

from .retention import start_round
from .store import GameRecord


def event(record: GameRecord, kind: str, data: dict[str, Any], private: dict[int, Any] | None = None) -> dict:
    """The next event of ``record`` (advances its ``seq``)."""
    record.seq += 1
    entry: dict[str, Any] = {"seq": record.seq, "type": kind, "version": record.version, "data": data}
    if private:
        entry["private"] = {str(seat): value for seat, value in private.items()}
    return entry


def log_entries(record: GameRecord, happened: Iterable[Event]) -> list[dict[str, Any]]:
    """The log entries of what the engine reports a change did, in order (advances ``record.seq``;
    a round's start also moves the kept log's bounds: :func:`services.api.retention.start_round`)."""
    return [_entry(record, each) for each in happened]


def _entry(record: GameRecord, happened: Event) -> dict[str, Any]:
    match happened:
        case CardPlayed(seat=seat, card=card):
            return event(record, "card_played", {"seat": seat, "card": card_code(card)})
        case BidMade(seat=seat, tricks=tricks):
            return event(record, "bid", {"seat": seat, "bid": tricks})
        case TrickWon(leader=leader, cards=cards, winner=winner):
            return event(record, "trick_won", {"seat": winner, "trick": trick_view(leader, cards, winner)})
        case RoundScored(round=number, record=finished):
            return event(record, "round_scored", round_json(number, finished))
        case GameOver(winner=winner, scores=scores):
            return event(record, "game_over", {"winner": list(winner), "scores": list(scores)})
        case RoundStarted(round=number, dealer=dealer, turn=first, hands=hands):
            private = {seat: {"hand": codes(hand)} for seat, hand in enumerate(hands)}
            entry = event(record, "round_started", {"round": number, "dealer": dealer, "turn": first}, private)
            start_round(record, entry["seq"])
            return entry
    raise TypeError(f"not an engine event: {happened!r}")


def round_started(record: GameRecord, state: GameState) -> dict[str, Any]:
    public = {"round": state.round, "dealer": dealer_of(state.round), "turn": first_seat(state.round)}
    private = {seat: {"hand": codes(state.hands[seat])} for seat in range(4)}
    entry = event(record, "round_started", public, private)
    start_round(record, entry["seq"])
    return entry


def move_events(record: GameRecord, before: GameState, after: GameState, seat: int, move: Bid | Play) -> list[dict]:
    """The events one accepted move causes, in order."""
    if isinstance(move, Bid):
        return [event(record, "bid", {"seat": seat, "bid": move.tricks})]
    events = [event(record, "card_played", {"seat": seat, "card": codes(1 << move.card)[0]})]
    if len(before.plays) % 4 == 3:
        trick = last_trick(after)
        events.append(event(record, "trick_won", {"seat": trick["winner"], "trick": trick}))
    if len(after.history) > len(before.history):
        scored = round_json(len(after.history), after.history[-1])
        events.append(event(record, "round_scored", scored))
        if after.phase == "game_over":
            events.append(
                event(record, "game_over", {"winner": list(after.winner or ()), "scores": list(after.scores)})
            )
        else:
            events.append(round_started(record, after))
    return events


def visible_event(entry: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The event as ``seat`` may see it: its own private part merged in, no other."""
    private = entry.get("private")
    if private is None:
        return entry
    data = dict(entry["data"])
    if seat is not None and str(seat) in private:
        data.update(private[str(seat)])
    return {"seq": entry["seq"], "type": entry["type"], "version": entry["version"], "data": data}
