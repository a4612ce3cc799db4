"""What the events' streams share in one process: each followed event's body, built (the event moved on first, as
any read does) at most once every ``interval`` seconds whichever streams ask, so a thousand people following one
event cost the process one read of it an interval, not a thousand.  An event nobody asked for in ``keep`` seconds is
forgotten."""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class _Seen:
    tag: str
    body: bytes
    finished: bool
    built: float
    asked: float


class EventWatch:
    """``build(event_id)`` is the event's body as ``GET /v1/events/{id}`` answers it and whether it has finished."""

    def __init__(
        self,
        build: Callable[[str], tuple[bytes, bool]],
        interval: float,
        keep: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.build = build
        self.interval = interval
        self.keep = keep
        self.clock = clock
        self._seen: dict[str, _Seen] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()

    def current(self, event_id: str, fresh: bool = False) -> tuple[str, bytes, bool]:
        """The event's body as of at most ``interval`` seconds ago (``fresh``: as of now, for a stream that opens:
        its first body is never older than what its client read just before): (its tag, the body, whether it has
        finished).  The tag changes exactly when the body does."""
        with self._lock:
            now = self.clock()
            for stale in [i for i, s in self._seen.items() if now - s.asked > self.keep]:
                del self._seen[stale]
                self._locks.pop(stale, None)
            lock = self._locks.setdefault(event_id, threading.Lock())
        with lock:  # one build at a time for an event: the others wait for it and share it
            seen = self._seen.get(event_id)
            now = self.clock()
            if fresh or seen is None or now - seen.built >= self.interval:
                body, finished = self.build(event_id)
                tag = hashlib.blake2b(body, digest_size=8).hexdigest()  # 16 hex digits: the stream checks them
                seen = _Seen(tag, body, finished, now, now)
                with self._lock:
                    self._seen[event_id] = seen
            seen.asked = now
            return seen.tag, seen.body, seen.finished

    def watched(self) -> int:
        """How many events the process is following now (tests, gauges)."""
        with self._lock:
            return len(self._seen)
