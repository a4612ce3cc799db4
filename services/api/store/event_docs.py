"""The store's part in events: each event one document (bytes the store never reads) with a version, written
only over the version it was read at (a compare-and-set), and the newest ids for the listing.  The memory twin is
here; Redis is :mod:`services.api.store.redis_event_docs`.  :mod:`services.api.events.storage` reads the
documents."""

from __future__ import annotations

import threading
from typing import Protocol

MOST_LISTED = 200  # the newest events the listing keeps


class EventDocs(Protocol):
    def event_doc(self, event_id: str) -> bytes | None:
        """The event's document, or None."""

    def write_event_doc(self, event_id: str, read_at: int, doc: bytes, created_ms: int) -> bool:
        """Write ``doc`` as version ``read_at + 1`` over version ``read_at`` (0: a new event, listed by
        ``created_ms``); False when the stored version is another."""

    def newest_event_ids(self, limit: int) -> list[str]:
        """The newest events' ids, newest first."""


class MemoryEventDocs:
    def __init__(self) -> None:
        self._docs: dict[str, tuple[int, bytes]] = {}
        self._created: dict[str, int] = {}
        self._lock = threading.Lock()

    def event_doc(self, event_id: str) -> bytes | None:
        found = self._docs.get(event_id)
        return None if found is None else found[1]

    def write_event_doc(self, event_id: str, read_at: int, doc: bytes, created_ms: int) -> bool:
        with self._lock:
            stored = self._docs.get(event_id, (0, b""))[0]
            if stored != read_at:
                return False
            self._docs[event_id] = (read_at + 1, doc)
            if read_at == 0:
                self._created[event_id] = created_ms
            return True

    def newest_event_ids(self, limit: int) -> list[str]:
        ordered = sorted(self._created, key=lambda i: (self._created[i], i), reverse=True)
        return ordered[: min(limit, MOST_LISTED)]
