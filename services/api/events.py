"""The game's event log entries: what each committed change appends.

A move's entries are what the engine reports it did (``apply_with_events``),
one entry per engine event (:func:`log_entries`); the API adds its own
(``game_created``, ``seat_claimed``, ``seat_left``).  Events carry the
version they belong to and a per-game ``seq``; a round's dealt hands go
under ``private`` per seat and are merged in only for that seat
(:func:`visible_event`), so the log can be read by anyone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from services.engine import (
    BidMade,
    CardPlayed,
    Event,
    GameOver,
    RoundScored,
    RoundStarted,
    TrickWon,
    card_code,
    codes,
    trick_view,
)
from services.engine import round_view as round_json

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


def visible_event(entry: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The event as ``seat`` may see it: its own private part merged in, no other."""
    private = entry.get("private")
    if private is None:
        return entry
    data = dict(entry["data"])
    if seat is not None and str(seat) in private:
        data.update(private[str(seat)])
    return {"seq": entry["seq"], "type": entry["type"], "version": entry["version"], "data": data}
