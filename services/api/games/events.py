"""The game's event log entries: what each committed change appends.

A move's entries are what the engine reports it did (``apply_with_events``),
one entry per engine event (:func:`log_entries`); the API adds its own
(``game_created``, ``seat_claimed``, ``seat_left``).  Events carry the
version they belong to and a per-game ``seq``; a round's dealt hands go
under ``private`` per seat and are merged in only for that seat
(:func:`visible_event`), so the log can be read by anyone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from services.api.games.event_types import BY_NAME
from services.api.games.log_retention import start_round
from services.api.games.record import GameRecord
from services.engine import (
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
    card_code,
    codes,
    trick_view,
)
from services.engine import round_view as round_json


def event(record: GameRecord, kind: str, data: dict[str, Any], private: dict[int, Any] | None = None) -> dict:
    """The next event of ``record`` (advances its ``seq``); ``kind`` is one of the log's types
    (:mod:`services.api.games.event_types`)."""
    assert kind in BY_NAME, f"{kind!r} is not in services/api/games/event_types.py"
    record.seq += 1
    entry: dict[str, Any] = {"seq": record.seq, "type": kind, "version": record.version, "data": data}
    if private:
        entry["private"] = {str(seat): value for seat, value in private.items()}
    return entry


def log_entries(record: GameRecord, happened: Iterable[Event]) -> list[dict[str, Any]]:
    """The log entries of what the engine reports a change did, in order (advances ``record.seq``;
    a round's start also moves the kept log's bounds: :func:`services.api.games.log_retention.start_round`)."""
    return [_ENTRIES[type(each)](record, each) for each in happened]


def _card_played(record: GameRecord, played: CardPlayed) -> dict[str, Any]:
    return event(record, "card_played", {"seat": played.seat, "card": card_code(played.card)})


def _bid(record: GameRecord, bid: BidMade) -> dict[str, Any]:
    data: dict[str, Any] = {"seat": bid.seat, "bid": bid.tricks}
    if bid.blind:
        data["blind"] = True
    return event(record, "bid", data)


def _hand_shown(record: GameRecord, shown: HandShown) -> dict[str, Any]:
    """A seat that could bid blind sees its hand: the hand is its own private part."""
    return event(record, "hand_shown", {"seat": shown.seat}, {shown.seat: {"hand": codes(shown.hand)}})


def _cards_passed(record: GameRecord, passed: CardsPassed) -> dict[str, Any]:
    """A card given in the nil exchange: the giver alone sees which (the receiver with ``exchange_done``)."""
    data = {"seat": passed.seat, "to": passed.to, "count": passed.cards.bit_count()}
    return event(record, "cards_passed", data, {passed.seat: {"cards": codes(passed.cards)}})


def _exchange_done(record: GameRecord, done: ExchangeDone) -> dict[str, Any]:
    """The exchange delivered: each seat's new hand is its own private part."""
    return event(record, "exchange_done", {}, {seat: {"hand": codes(h)} for seat, h in enumerate(done.hands)})


def _trick_won(record: GameRecord, trick: TrickWon) -> dict[str, Any]:
    data = {"seat": trick.winner, "trick": trick_view(trick.leader, trick.cards, trick.winner)}
    return event(record, "trick_won", data)


def _round_scored(record: GameRecord, scored: RoundScored) -> dict[str, Any]:
    return event(record, "round_scored", round_json(scored.round, scored.record, record.state.rules))


def _game_over(record: GameRecord, over: GameOver) -> dict[str, Any]:
    return event(record, "game_over", {"winner": list(over.winner), "scores": list(over.scores)})


def _round_started(record: GameRecord, started: RoundStarted) -> dict[str, Any]:
    public = {"round": started.round, "dealer": started.dealer, "turn": started.turn}
    private = {seat: {"hand": codes(h)} for seat, h in enumerate(started.hands) if seat not in started.hidden}
    if started.hidden:  # seats that may bid blind get their hand with hand_shown
        public["hidden"] = list(started.hidden)
    entry = event(record, "round_started", public, private)
    start_round(record, entry["seq"])
    return entry


# one entry per engine event, looked up by its type: a move's path (a match statement costs more)
_ENTRIES: dict[type, Callable[[GameRecord, Any], dict[str, Any]]] = {
    CardPlayed: _card_played,
    BidMade: _bid,
    HandShown: _hand_shown,
    CardsPassed: _cards_passed,
    ExchangeDone: _exchange_done,
    TrickWon: _trick_won,
    RoundScored: _round_scored,
    GameOver: _game_over,
    RoundStarted: _round_started,
}


def visible_event(entry: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The event as ``seat`` may see it: its own private part merged in, no other."""
    private = entry.get("private")
    if private is None:
        return entry
    data = dict(entry["data"])
    if seat is not None and str(seat) in private:
        data.update(private[str(seat)])
    return {"seq": entry["seq"], "type": entry["type"], "version": entry["version"], "data": data}
