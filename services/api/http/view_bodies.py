"""A game view's JSON body, in the two parts a version never changes and what ``GET`` adds at read time.

The body is ``head`` (every field but ``seats`` and ``history``), ``seats``, then ``tail`` (the finished
rounds, spliced in as the bytes :func:`services.api.games.rendering.rendered_rounds` keeps).  ``GET
/v1/games/{id}`` caches ``(head, tail)`` per version and splices in, at each read, the seats with their
``connected`` flags and the table's last quick ``messages`` (:mod:`services.api.store.table_life`: one store
round trip; a viewing seat's player is not shown the messages of the players it blocked: :func:`table_extras`):
so what changes between two versions never enters the per-version cache.  Other responses that
carry a view (a move, a leave) have ``seats`` without ``connected`` and no ``messages``: they cost no read.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

import orjson

from services.api.games.messages import shown
from services.api.games.record import GameRecord
from services.api.games.rendering import RenderedRounds, seats_view
from services.api.http import response_schemas
from services.api.store.protocol import GameStore, now_ms

log = logging.getLogger(__name__)
ViewParts = tuple[bytes, bytes]


def view_parts(data: dict[str, Any]) -> ViewParts:
    """``data`` (a game view) dumped through the GameView schema, without its seats: ``(head, tail)``."""
    dumped = response_schemas.dump_game_view(data)
    history = dumped.pop("history")
    dumped.pop("seats", None)
    rounds = history.text if isinstance(history, RenderedRounds) else orjson.dumps(history)
    return orjson.dumps(dumped)[:-1], b',"history":' + rounds + b"}"


def view_body(data: dict[str, Any]) -> bytes:
    """A game view's JSON body, as it is at its version (seats without ``connected``, no ``messages``)."""
    head, tail = view_parts(data)
    return b"".join((head, b',"seats":', orjson.dumps(data["seats"]), tail))


def live_view_body(parts: ViewParts, record: GameRecord, connected: list[bool], messages: list[bytes]) -> bytes:
    """The body of ``GET``: the version's parts, with each seat's ``connected`` and the kept ``messages``."""
    seats = seats_view(record)
    for seat, flag in zip(seats, connected, strict=False):
        seat["connected"] = flag
    head, tail = parts
    listed = b"[" + b",".join(messages) + b"]"
    return b"".join((head, b',"seats":', orjson.dumps(seats), b',"messages":', listed, tail))


class Blockers(Protocol):
    def blocked_by(self, player_id: str) -> set[str]:
        """The players ``player_id`` blocked (:class:`services.api.players.friends.Friends`)."""


def hidden_for(record: GameRecord, seat: int | None, blockers: Blockers | None) -> set[str]:
    """The players whose quick messages ``seat``'s player is not shown (none for a spectator or an unbound seat).
    A records database that does not answer hides nothing: the table goes on."""
    viewer = None if seat is None else record.seats[seat].player_id
    others = {s.player_id for s in record.seats if s.player_id is not None and s.player_id != viewer}
    if viewer is None or blockers is None or not others:
        return set()
    try:
        return blockers.blocked_by(viewer) & others
    except Exception:
        log.warning("could not read a player's blocks", extra={"game_id": record.game_id}, exc_info=True)
        return set()


def table_extras(
    store: GameStore, record: GameRecord, seat: int | None, blockers: Blockers | None
) -> tuple[list[bool], list[bytes]]:
    """Each seat's ``connected`` flag and the messages ``seat`` is shown, read now (never cached)."""
    connected, messages = store.table_extras(record.game_id, now_ms())
    if messages and (hidden := hidden_for(record, seat, blockers)):
        messages = shown(messages, hidden)
    return connected, messages
