"""Events kept: :class:`EventStorage` reads and writes :class:`~services.api.events.model.Event` over the store's
documents (:class:`services.api.store.event_docs.EventDocs`: memory or Redis), each written only over the version
it was read at, so the service's read-change-write never loses a change to a racing process."""

from __future__ import annotations

import orjson

from services.api.events.model import Event
from services.api.store.event_docs import EventDocs


class EventStorage:
    def __init__(self, docs: EventDocs) -> None:
        self.docs = docs

    def load(self, event_id: str) -> Event | None:
        doc = self.docs.event_doc(event_id)
        return None if doc is None else Event.from_json(orjson.loads(doc))

    def add(self, event: Event) -> bool:
        """Store a new event (version 1); False when its id is taken."""
        return self.docs.write_event_doc(event.event_id, 0, orjson.dumps(event.to_json()), event.created_ms)

    def replace(self, event: Event) -> bool:
        """Store ``event`` (version n + 1) over version n; False when another change got in first."""
        doc = orjson.dumps(event.to_json())
        return self.docs.write_event_doc(event.event_id, event.version - 1, doc, event.created_ms)

    def newest(self, limit: int) -> list[Event]:
        found = [self.load(i) for i in self.docs.newest_event_ids(limit)]
        return [e for e in found if e is not None]
