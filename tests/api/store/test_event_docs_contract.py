"""The events' documents (:class:`services.api.store.event_docs.EventDocs`): a write over the version read, a new
event only once, the newest first; the same on the memory store, one Redis and the Redis Cluster."""

from __future__ import annotations

import pytest
import redis

from services.api.store.event_docs import MemoryEventDocs
from services.api.store.memory_store import MemoryStore
from services.api.store.protocol import NotReplicated
from services.api.store.redis_event_docs import RedisEventDocs
from tests.conftest import redis_url

from .contract import CONTRACT_DB

LATER = 4_000_000_000_000  # Unix ms, in 2096: this test's events are the newest on a shared Cluster


@pytest.fixture
def docs(store):
    return MemoryEventDocs() if isinstance(store, MemoryStore) else RedisEventDocs.beside(store)


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


@pytest.mark.integration
def test_a_write_the_replicas_do_not_confirm_is_made_but_not_acknowledged():
    """No replica here: with one required, the write is made but raises (a 503), as a game's commit does, so a
    failover that loses it never takes back an answered change of the event."""
    client = redis.Redis.from_url(redis_url(CONTRACT_DB))
    client.flushdb()
    try:
        docs = RedisEventDocs(client, wait_replicas=1, wait_timeout_ms=10)
        with pytest.raises(NotReplicated):
            docs.write_event_doc("e1", 0, b"v1", LATER)
        assert docs.event_doc("e1") == b"v1" and docs.newest_event_ids(1) == ["e1"]
        with pytest.raises(NotReplicated):
            docs.write_event_doc("e1", 1, b"v2", LATER)
        assert not docs.write_event_doc("e1", 1, b"lost race", LATER), (
            "a refused write is refused, whatever the replicas"
        )
        assert docs.event_doc("e1") == b"v2"
    finally:
        client.close()
