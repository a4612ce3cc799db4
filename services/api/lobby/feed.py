"""The lobby stream (``GET /v1/tables/stream``): the listing's changes as Server-Sent Events.

The listing logs every change with a sequence number (:mod:`services.api.store.lobby_tables`); the stream sends
the changes after its resume point, as the game stream sends a game's events: ``id: <seq>``, ``event:
table_opened | table_changed | table_closed``, ``data: <the change>``, ``: keep-alive`` comments between, and it
ends after ``STREAM_MAX_SECONDS`` or when the process drains (the client resumes with ``Last-Event-ID``).  A
publication on the lobby's channel wakes it and carries the change (:mod:`services.api.live.wakeups`), so a
change reaches every stream of a process without a read per stream; the store's log is the truth, read first,
after a gap in the published seqs, after a re-made subscription and whenever a heartbeat passes.
No Flask here: the route checks everything first and hands over the store, the wake-ups and the settings.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import orjson

from services.api.live.stream import KEEP_ALIVE, RETRY_MS, StreamSettings, frame
from services.api.live.wakeups import Waiter, Wakeups
from services.api.store.lobby_tables import TABLES_CHANNEL
from services.api.store.protocol import GameStore


def resumable(store: GameStore, after: int) -> int | None:
    """None when the log still holds every change after ``after``; else the oldest seq it holds (the ``410``)."""
    found = store.table_changes_after(after, 1)
    if found and found[0]["seq"] != after + 1:
        return int(found[0]["seq"])
    return None


def _following(waiter: Waiter, cursor: int) -> list[dict[str, Any]] | None:
    """The published changes that follow ``cursor`` without a gap; None: read the store instead."""
    payloads, resync = waiter.take()
    if resync or not payloads:
        return None
    try:
        changes = [change for change in map(orjson.loads, payloads) if change["seq"] > cursor]
    except (orjson.JSONDecodeError, TypeError, KeyError):
        return None
    if any(change["seq"] != cursor + 1 + i for i, change in enumerate(changes)):
        return None
    return changes


def lobby_frames(
    store: GameStore,
    wakeups: Wakeups,
    after: int,
    settings: StreamSettings,
    clock: Callable[[], float] = time.monotonic,
    renew: Callable[[], None] | None = None,
) -> Iterator[bytes]:
    """The stream's body: ``retry:``, then every change after ``after``, until the lifetime ends, the process
    drains, or the log was trimmed past the cursor (the reconnect is then answered ``410 too_far_behind``).
    ``renew()`` every ``renew_seconds``: the stream's slot among its client's waiting requests."""
    started = clock()
    deadline = started + settings.max_seconds
    next_renew = started + settings.renew_seconds
    cursor, published = after, None
    yield b"retry: %d\n\n" % RETRY_MS
    with wakeups.watch(TABLES_CHANNEL) as waiter:
        while True:
            now = clock()
            if now >= deadline or wakeups.draining:
                return
            if renew is not None and settings.renew_seconds > 0 and now >= next_renew:
                renew()
                next_renew = now + settings.renew_seconds
            found = published if published is not None else store.table_changes_after(cursor, settings.page_size)
            published = None
            if found and found[0]["seq"] != cursor + 1:
                return  # trimmed past the cursor: the reconnect gets the 410
            if found:
                cursor = found[-1]["seq"]
                yield b"".join(frame(change) for change in found)
                continue
            wait = min(settings.heartbeat_seconds, deadline - now)
            if renew is not None and settings.renew_seconds > 0:
                wait = min(wait, max(0.0, next_renew - now))
            if not waiter.wait(wait):
                yield KEEP_ALIVE
                continue
            published = _following(waiter, cursor)
