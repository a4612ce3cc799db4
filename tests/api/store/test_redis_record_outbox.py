"""The records outbox's Redis scripts on a real Redis: one claimant per due entry, a finished game's expiry
given back only at the version recorded, a game held (never shortened) while its record waits, and the commit
that ends a game taking its expiry off."""

from __future__ import annotations

import pytest
import redis

from services.api.store.redis_record_outbox import outbox_set
from services.api.store.redis_store import RedisStore

from ..records.conftest import stored_game

pytestmark = pytest.mark.integration


@pytest.fixture
def client(private_redis_url) -> redis.Redis:
    return redis.Redis.from_url(private_redis_url)


def store_of(client: redis.Redis) -> RedisStore:
    return RedisStore(client, ttl_seconds=600, idem_ttl=300, finished_ttl=60, keep_finished=True, recent_size=0)


def test_a_due_entry_is_claimed_once_until_its_lease_ends(client):
    one, two = store_of(client), store_of(client)
    one.schedule_record("g1", 100.0)
    one.schedule_record("g2", 500.0)
    assert one.claim_records(200.0, 10.0, 10) == ["g1"]
    assert two.claim_records(200.0, 10.0, 10) == []  # leased to the first claimant
    assert two.claim_records(211.0, 10.0, 10) == ["g1"]  # the lease ended: its claimant is gone
    one.record_done("g1")
    assert client.zscore(outbox_set("g1"), "g1") is None


def test_the_commit_that_ends_a_game_takes_its_expiry_off_and_the_record_gives_it_back(client):
    store = store_of(client)
    playing = stored_game("g1", over=False)
    assert store.commit(playing, None, [])
    assert 0 < client.ttl("game:{g1}") <= 600
    over = stored_game("g1")
    over.version = playing.version + 1
    assert store.commit(over, playing, [])
    assert client.ttl("game:{g1}") == -1 and store.game_ttl("g1") is None
    store.schedule_record("g1", 0)
    assert not store.record_written("g1", over.version - 1)  # a record of an older version: nothing changes
    assert client.ttl("game:{g1}") == -1 and client.zscore(outbox_set("g1"), "g1") is not None
    assert store.record_written("g1", over.version)
    assert 0 < client.ttl("game:{g1}") <= 60 and client.zscore(outbox_set("g1"), "g1") is None


def test_keeping_a_game_lengthens_its_expiry_and_never_shortens_it(client):
    store = store_of(client)
    assert store.commit(stored_game("g1", over=False), None, [])
    store.keep_game("g1", 3600)
    assert 3500 < client.ttl("game:{g1}") <= 3600
    store.keep_game("g1", 10)
    assert client.ttl("game:{g1}") > 3500
    assert 3500 < (store.game_ttl("g1") or 0) <= 3600
