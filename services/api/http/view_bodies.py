"""A game view's JSON body, in the two parts a version never changes and what ``GET`` adds at read time.

The body is ``head`` (every field but ``seats`` and ``history``), ``seats``, then ``tail`` (the finished
rounds, spliced in as the bytes :func:`services.api.games.rendering.rendered_rounds` keeps).  ``GET
/v1/games/{id}`` caches ``(head, tail)`` per version and splices in, at each read, the seats with their
``connected`` flags and the table's last quick ``messages`` (:mod:`services.api.store.table_life`: one store
round trip): so what changes between two versions never enters the per-version cache.  Other responses that
carry a view (a move, a leave) have ``seats`` without ``connected`` and no ``messages``: they cost no read.
"""

from __future__ import annotations

from typing import Any

import orjson

from services.api.games.record import GameRecord
from services.api.games.rendering import RenderedRounds, seats_view
from services.api.http import response_schemas

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
