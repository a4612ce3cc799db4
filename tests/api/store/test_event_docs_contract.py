"""The events' documents (:class:`services.api.store.event_docs.EventDocs`): a write over the version read, a new
event only once, the newest first; the same on the memory store, one Redis and the Redis Cluster."""

from __future__ import annotations

import pytest

from services.api.store.event_docs import MemoryEventDocs
from services.api.store.memory_store import MemoryStore
from services.api.store.redis_event_docs import RedisEventDocs

LATER = 4_000_000_000_000  # Unix ms, in 2096: this test's events are the newest on a shared Cluster


@pytest.fixture
def docs(store):
    return MemoryEventDocs() if isinstance(store, MemoryStore) else RedisEventDocs(store.client)


def test_a_document_is_written_only_over_the_version_it_was_read_at(docs, ids):
    event = ids("e")
    assert docs.event_doc(event) is None
    assert docs.write_event_doc(event, 0, b"v1", LATER)
    assert not docs.write_event_doc(event, 0, b"again", LATER), "an id is made once"
    assert docs.write_event_doc(event, 1, b"v2", LATER)
    assert not docs.write_event_doc(event, 1, b"lost race", LATER)
    assert docs.event_doc(event) == b"v2"


def test_the_newest_events_come_first(docs, ids):
    made = [ids(f"e{n}") for n in range(3)]
    for n, event in enumerate(made):
        assert docs.write_event_doc(event, 0, b"{}", LATER + n)
    assert docs.write_event_doc(made[0], 1, b"changed", LATER + 10), "a change does not move it up"
    assert docs.newest_event_ids(2) == [made[2], made[1]]
