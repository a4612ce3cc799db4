"""A game's record: what a finished (or abandoned) game was, built from what the store holds.

Built from the stored state alone (:class:`services.api.games.record.GameRecord`): the rules as a dict
(whatever options they have), the seats (human, or computer with its level: never a token), every finished
round with its deal, bids, cards and tricks in order and its score parts, the result and the timestamps.
Never the seed: an unseeded game's seed is secret, and any seed would only repeat the deals the record
already shows.  An abandoned game's round in play shows its bids and the cards played, never its deal.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Any

import orjson

from services.api.games.fair_play import fair_play_view
from services.api.games.record import GameRecord, Seat
from services.api.games.rendering import computer_player_id
from services.engine import GameState, completed_tricks, round_parts, round_view, rules_from_dict, view
from services.ratings.policy import is_rated

FORMAT = 1  # the record document's format: a change that breaks a reader gets a new number
FINISHED, ABANDONED = "finished", "abandoned"


def iso(ms: int) -> str:
    """Unix milliseconds as an RFC 3339 UTC time."""
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def player(seat_type: str, level: str | None) -> str:
    """Who sat there, as the listing filters on it: ``human`` or the computer's level."""
    return level if seat_type == "ai" and level else "human"


def seat_player_id(seat: Seat) -> str | None:
    """The player who sat there, by id (names are looked up when a record is read, so a rename or a deletion
    shows): the player a person's seat was bound to, the computer level of a computer's seat
    (``computer-<level>``), or None (a person without a player, an open seat).  A stand-in (a computer that
    took over a seat someone left) plays for the player who left, so the game's result is theirs: leaving a
    rated game is no way out of its loss; a stand-in for nobody's seat is nobody's."""
    if seat.stand_in:
        return seat.player_id
    if seat.type == "ai" and seat.level:
        return computer_player_id(seat.level)
    return seat.player_id if seat.type == "human" else None


def _tricks(state: GameState, round_no: int, plays: tuple[int, ...]) -> list[dict[str, Any]]:
    """A round's tricks (leader, cards, winner), by the engine's own rule."""
    return completed_tricks(dataclasses.replace(state, round=round_no, plays=plays))


def _round(state: GameState, round_no: int) -> dict[str, Any]:
    finished = state.history[round_no - 1]
    shown = round_view(round_no, finished, state.rules)
    shown["tricks"] = _tricks(state, round_no, finished.plays)
    return shown


def _round_in_play(state: GameState) -> dict[str, Any] | None:
    """An abandoned game's round in play: what a spectator sees (bids, tricks, the trick on the table), never
    its deal."""
    if state.phase == "game_over":
        return None
    shown = view(state, None, history=False)
    return {key: shown[key] for key in ("round", "dealer", "bids", "tricks", "trick")}


def build(record: GameRecord, rate_computer_only: bool = False) -> dict[str, Any]:
    """The record document of ``record``'s game (see the module doc; ``GameRecordDocument`` in openapi.yaml);
    ``rated`` says whether the game counts for its players' ratings (:mod:`services.ratings.policy`: with
    ``rate_computer_only``, games of computers alone do too)."""
    state = record.state
    over = state.phase == "game_over"
    winners = set(state.winner or ())
    document = {
        "format": FORMAT,
        "game_id": record.game_id,
        "version": record.version,
        "outcome": FINISHED if over else ABANDONED,
        "created_at": iso(record.created_ms),
        "ended_at": iso(record.changed_ms or record.created_ms),
        "rules": state.rules.to_dict(),
        "options": record.options.to_json(),
        "seeded": record.seeded,
        "seats": [
            {
                "seat": i,
                "type": s.type,
                "level": s.level if s.type == "ai" else None,
                "won": i in winners,
                "player_id": seat_player_id(s),
            }
            for i, s in enumerate(record.seats)
        ],
        "rounds": [_round(state, n) for n in range(1, len(state.history) + 1)],
        "round_in_play": None if over else _round_in_play(state),
        "result": {
            "winner": sorted(winners) if over else None,
            "scores": list(state.scores),
            "bags": list(state.bags),
        },
    }
    # a game made to count: whether it still did, and who forfeited; null: a game not made to count
    document["fair_play"] = None if record.fair is None else fair_play_view(record.fair)
    document["rated"] = is_rated(document, rate_computer_only)
    return document


def with_parts(stored: bytes) -> bytes:
    """A stored record document whose rounds all say their points part by part (``parts``, as
    :func:`services.engine.round_view` renders them): documents written without them get them from their own
    rules and rounds, so every client reads one shape."""
    if b'"parts"' in stored or b'"rounds":[]' in stored:
        return stored
    document = orjson.loads(stored)
    rules = rules_from_dict(document["rules"])
    for shown in document["rounds"]:
        blind = tuple(shown.get("blind") or ())
        shown["parts"] = round_parts(
            rules, tuple(shown["bids"]), tuple(shown["tricks_won"]), blind, tuple(shown["bag_penalties"])
        )
    return orjson.dumps(document)
