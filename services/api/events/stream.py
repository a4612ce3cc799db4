"""An event's push stream (``GET /v1/events/{id}/stream``) as Server-Sent Events: the event's body whenever it
changes, from the process's shared :class:`services.api.events.watch.EventWatch`.

``retry:`` first (the headers go out at once), then an ``event: event`` frame with the body and its tag as the
frame's ``id``, again each time the tag changes (looked at every ``interval``), a ``: keep-alive`` comment after
``heartbeat`` seconds without a frame; the stream ends after the frame of a finished event, after ``max_seconds``
(the client reconnects with ``Last-Event-ID``: a frame is sent again only if the event changed since), when the
process is stopping, or once its client has gone."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from services.api.events.watch import EventWatch

RETRY_MS = 3000
_NEVER = threading.Event()  # never set: its wait is a timed pause that nothing cuts short


@dataclass(frozen=True)
class EventStreamSettings:
    interval: float  # how often the watch is asked
    heartbeat: float
    max_seconds: float
    renew_seconds: float = 0.0  # the stream's waiting slot renewed this often (0: not at all)


def event_frame(tag: str, body: bytes) -> bytes:
    return b"id: %s\nevent: event\ndata: %s\n\n" % (tag.encode(), body)


def event_frames(
    watch: EventWatch,
    event_id: str,
    last_tag: str | None,
    settings: EventStreamSettings,
    stopping: Callable[[], bool],
    renew: Callable[[], None] | None = None,
    connected: Callable[[], bool] | None = None,
    clock: Callable[[], float] = time.monotonic,
    pause: Callable[[float], object] = _NEVER.wait,
) -> Iterator[bytes]:
    started = sent = clock()
    next_renew = started + settings.renew_seconds
    yield b"retry: %d\n\n" % RETRY_MS
    while True:
        tag, body, finished = watch.current(event_id)
        now = clock()
        if tag != last_tag:
            yield event_frame(tag, body)
            last_tag, sent = tag, now
        elif now - sent >= settings.heartbeat:
            yield b": keep-alive\n\n"
            sent = now
        if finished or stopping() or now - started >= settings.max_seconds:
            return
        if renew is not None and settings.renew_seconds > 0 and now >= next_renew:
            if connected is not None and not connected():  # the page closed: hold nothing for it
                return
            renew()
            next_renew = now + settings.renew_seconds
        # the pace of the watch (it is the shared read that finds a change), and never past the stream's age
        pause(min(settings.interval, max(started + settings.max_seconds - now, 0.0)))
