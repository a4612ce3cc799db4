"""Quick messages: a fixed set of short table messages and reactions a seat may post (no free text, so nothing to
moderate).

``POST /v1/games/{id}/messages`` with a seat token and ``{"code": ...}`` (one of :data:`CODES`).  A post is kept
in the game's last :data:`~services.api.store.table_life.MESSAGES_KEPT` (the view's ``messages``, read at each
``GET`` of the view) and pushed to the game's streams as ``event: message`` (not a log event: no ``id``, never
replayed).  Each seat may post one every 2 s and 10 a minute (:class:`~services.api.store.table_life.MessageLimits`,
checked and counted in the store with the post, so the limit holds across processes): past that,
``429 too_many_messages`` with ``Retry-After``.  Spectators read them; only seats post.  A message of a seat bound
to a player names them (``player_id``): the views and streams of a seat whose player blocked them leave it out
(:func:`shown`).
"""

from __future__ import annotations

import math
from typing import Any

import orjson

from services.api.games.auth import seat_for
from services.api.games.commands import Collaborators
from services.api.games.pipeline import load
from services.api.metrics import TABLE_MESSAGES
from services.api.problems import ApiError
from services.api.store.protocol import now_ms
from services.api.store.table_life import MessageLimits

CODES = ("hello", "good_game", "well_played", "nice_bid", "oops", "thanks", "hurry", "wow")
LIMITS = MessageLimits()


def post(ctx: Collaborators, game_id: str, token: str, code: str, limits: MessageLimits = LIMITS) -> dict[str, Any]:
    """Post ``code`` for the token's seat; the message as kept and pushed."""
    record = load(ctx.store, game_id)
    seat = seat_for(record, token)
    assert seat is not None
    ctx.note_seat(seat)
    message: dict[str, Any] = {"seat": seat, "code": code, "at_ms": now_ms()}
    if record.seats[seat].player_id is not None:  # whose it is: a player who blocked them is not shown it
        message["player_id"] = record.seats[seat].player_id
    wait_ms = ctx.store.post_message(game_id, seat, orjson.dumps(message), message["at_ms"], limits)
    if wait_ms > 0:
        TABLE_MESSAGES.labels("too_many_messages").inc()
        detail = (
            f"A seat may post a quick message every {limits.gap_ms // 1000} s and {limits.most} a minute; "
            "retry after Retry-After."
        )
        raise ApiError(429, "too_many_messages", detail, retry_after=max(1, math.ceil(wait_ms / 1000)))
    TABLE_MESSAGES.labels("sent").inc()
    return message


def shown(stored: list[bytes], hidden: set[str]) -> list[bytes]:
    """The kept messages (stored JSON) but those of the players in ``hidden`` (whom the viewer blocked)."""
    if not hidden:
        return stored
    return [raw for raw in stored if orjson.loads(raw).get("player_id") not in hidden]


def kept(stored: list[bytes]) -> list[dict[str, Any]]:
    """The kept messages as the view shows them (oldest first)."""
    return [orjson.loads(raw) for raw in stored]
