"""The push stream (``GET /v1/games/{id}/stream``): Server-Sent Events framing and the generator.

The stream carries exactly what ``/events`` returns (same ``seq``, same per-seat private data via
:func:`services.api.games.events.visible_event`), read the same way: a listener of the process's fan-out hub
(:mod:`services.api.live.fanout`), held for the stream's life, so an open stream holds no Redis connection
and no thread of its own (under gevent, one greenlet).

No Flask here: the route hands over the process's fan-out hub and the settings, and the generator runs after the
view has returned (outside the request context).  A client that goes away is noticed when a write
fails: the WSGI server then closes this generator, so a dropped stream ends at its next heartbeat
(or the one after: the first write after a close may still land in the kernel's buffer).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from services.api.games.audience import Audience
from services.api.games.clock_events import delivered
from services.api.games.event_types import LAST, LEAVES
from services.api.games.log_retention import skipped_past
from services.api.live.fanout import FanoutHub
from services.api.problems import int_param
from services.api.store.protocol import now_ms
from services.api.store.table_life import MESSAGE_NOTICE, PRESENCE_NOTICE

MAX_SEQ = 2**53  # the contract's bound on `after` (a JSON-safe integer)
MAX_EVENT_ID = 10**16 - 1  # the contract's Last-Event-ID: 1 to 16 digits
RETRY_MS = 2000  # the reconnection delay the stream asks EventSource-like clients to use
KEEP_ALIVE = b": keep-alive\n\n"


@dataclass(frozen=True)
class StreamSettings:
    """How long each blocking read waits (the heartbeat interval) and how long a connection lives."""

    heartbeat_seconds: float
    max_seconds: float
    page_size: int
    touch_seconds: float = 0.0  # call the stream's ``touch`` this often while it is open (0: never)
    renew_seconds: float = 0.0  # call the stream's ``renew`` this often while it is open (0: never)


def resume_point(last_event_id: str | None, after: str | None) -> int:
    """Where a stream starts: after ``Last-Event-ID`` (a reconnecting client), else ``after`` (a first
    connection that cannot set headers, e.g. EventSource), else 0.  The header wins because an
    EventSource reconnects with its original URL (and its ``after``) plus the newer header.
    The contract's bounds: ``Last-Event-ID`` is 1 to 16 digits, ``after`` an integer 0..2^53; else 400."""
    start = 0
    if after is not None:  # checked even when the header wins: a bad parameter is a bad request
        start = int_param(after, "after", MAX_SEQ)
    if last_event_id is not None:
        start = int_param(last_event_id, "Last-Event-ID", MAX_EVENT_ID, "must be 1 to 16 digits")
    return start


def frame(entry: dict[str, Any]) -> bytes:
    """One event as an SSE message: ``id`` (its seq), ``event`` (its type), ``data`` (its JSON, one line)."""
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (entry["seq"], entry["type"].encode(), orjson.dumps(entry))


def notice_frame(kind: str, data: dict[str, Any]) -> bytes:
    """A table notice as an SSE message: no ``id`` (not a log event: a reconnect neither resumes from nor replays
    it), ``event: presence`` or ``event: message``."""
    return b"event: %s\ndata: %s\n\n" % (kind.encode(), orjson.dumps(data))


@dataclass(frozen=True)
class TableFeed:
    """What a stream adds to the log's events (:mod:`services.api.store.table_life`): presence, starting with
    ``presence`` (each seat's connected flag when it opened; None: not known), and quick messages but those of the
    players in ``hidden`` (whom the stream's seat's player blocked, read when it opened)."""

    presence: list[bool] | None
    hidden: frozenset[str] = frozenset()


def _notice_frames(
    notices: list[dict[str, Any]], told: list[list[bool] | None], hidden: frozenset[str] = frozenset()
) -> list[bytes]:
    """The frames of a read's notices: every message (but the ``hidden`` players'), a presence only when it
    differs from the last one told."""
    frames = []
    for notice in notices:
        kind = notice.get("notice")
        if kind == PRESENCE_NOTICE and notice.get("seats") != told[0]:
            told[0] = notice["seats"]
            frames.append(notice_frame(kind, {"seats": notice["seats"]}))
        elif kind == MESSAGE_NOTICE and notice.get("player_id") not in hidden:
            frames.append(notice_frame(kind, {k: v for k, v in notice.items() if k != "notice"}))
    return frames


def sse_frames(
    hub: FanoutHub,
    game_id: str,
    audience: Audience,
    after: int,
    settings: StreamSettings,
    clock: Callable[[], float] = time.monotonic,
    touch: Callable[[], None] | None = None,
    touching: bool = True,
    renew: Callable[[], None] | None = None,
    table: TableFeed | None = None,
    connected: Callable[[], bool] | None = None,
) -> Iterator[bytes]:
    """The stream's body: ``retry:`` first, as soon as it listens to the game (so the headers go out without
    waiting for an event, and a client that has them misses no later notice), then every event after
    ``after`` as ``audience`` may see it (:mod:`services.api.games.audience`), a ``: keep-alive`` comment whenever a read waited
    ``heartbeat_seconds`` for nothing, until ``game_over`` was sent or ``max_seconds`` have passed
    or the process is stopping (:meth:`FanoutHub.drain`; the client then reconnects with
    ``Last-Event-ID``), or the seat's credential stopped holding it (after the change's event, or before a
    private event it may no longer see: the reconnect is a ``401``), or the log was trimmed past the stream's
    cursor (the reconnect is then answered ``410 too_far_behind``).  With ``touch`` and
    ``touch_seconds``, ``touch()`` once ``touch_seconds`` have passed since the last, checked before each
    read (so at least every heartbeat), while ``touching`` (from the start, or from the first
    ``seat_left`` or ``seat_away`` event on): an open stream watches a computer-only game
    (:mod:`services.api.ai_seats.pauses`), and one its players left to computers.  With ``renew`` and
    ``renew_seconds``, ``renew()`` every ``renew_seconds``, checked before each read, and no read waits
    longer: the lease of the stream's slot among its client's waiting requests
    (:mod:`services.api.live.waiting_caps`) never lapses while it is open, whatever the heartbeat.  With
    ``table`` (:class:`TableFeed`), the stream also carries presence and quick messages as they are published.  With ``connected``, asked before each
    renewal, the stream ends instead once its client has gone (:mod:`services.api.live.peer`): a closed page
    renews no lease after it closed, though the stream has written nothing since."""
    started = clock()
    deadline = started + settings.max_seconds
    every = settings.touch_seconds
    next_touch = clock() + every
    renew_every = settings.renew_seconds if renew is not None else 0.0
    next_renew = started + renew_every
    cursor = after
    listening = hub.listen(game_id, notices=True) if table is not None else hub.listen(game_id)
    with listening as listener:  # left when the server closes the generator (a dropped client)
        told = [table.presence if table else None]  # the presence last sent
        first = notice_frame(PRESENCE_NOTICE, {"seats": told[0]}) if told[0] is not None else b""
        yield b"retry: %d\n\n%s" % (RETRY_MS, first)
        sent = started  # when the last bytes went out: a keep-alive only after a heartbeat without any
        while True:
            now = clock()
            remaining = deadline - now
            if remaining <= 0 or hub.draining:  # the process is stopping: the client reconnects elsewhere
                return
            if touching and touch is not None and every > 0 and now >= next_touch:  # at least once a heartbeat
                touch()
                next_touch = now + every
            wait = min(settings.heartbeat_seconds, remaining)
            if renew is not None and renew_every > 0:
                if now >= next_renew:
                    if connected is not None and not connected():  # the page closed: hold nothing for it
                        return
                    renew()
                    next_renew = now + renew_every
                wait = min(wait, renew_every)
            found = listener.wait(cursor, settings.page_size, wait)
            frames = _notice_frames(listener.take_notices(), told, table.hidden) if table is not None else []
            if not found:
                waited = now + wait  # (as the clock is read once a loop) when this wait ran out
                if frames or waited - sent >= settings.heartbeat_seconds:  # a wait cut short to renew: quiet
                    yield b"".join(frames) or KEEP_ALIVE
                    sent = waited
                continue
            if skipped_past(cursor, found):  # the log was trimmed past the cursor: the reconnect gets the 410
                return
            sent_ms, over = now_ms(), False
            for visible in audience.admit(found):
                cursor = visible["seq"]
                touching = touching or visible["type"] in LEAVES
                frames.append(frame(delivered(visible, sent_ms)))  # a turn_clock frame: with the server's time
                if visible["type"] == LAST:
                    over = True
                    break
            if frames:
                yield b"".join(frames)  # one write per page read, not one per event
                sent = now
            if over or audience.ended:
                return
