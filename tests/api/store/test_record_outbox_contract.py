"""The records outbox's Redis scripts on a real Redis: one claimant per due entry, a finished game's expiry
given back only at the version recorded, a game held (never shortened) while its record waits, the commit
that ends a game taking its expiry off, and an abandoned game ended whole, only at the version recorded."""

from __future__ import annotations

import pytest
import redis

from services.api.store.protocol import NotReplicated
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


def test_ending_a_game_deletes_every_key_of_it_at_once_and_only_at_the_version_recorded(client):
    store = store_of(client)
    playing = stored_game("g1", over=False)
    assert store.commit(playing, None, [{"seq": 1, "type": "x"}], ("game:{g1}:idem:2", b"entry"))
    for key in ("game:{g1}:ai", "game:{g1}:watched", "game:{g1}:paused"):
        client.set(key, "1", ex=600)
    keys = sorted(key.decode() for key in client.scan_iter(match="game:{g1}*"))
    assert len(keys) == 6
    assert not store.end_game("g1", playing.version - 1)  # a move since: the game goes on, whole
    assert not store.end_game("g1", None)  # expected gone, but it is there
    assert sorted(key.decode() for key in client.scan_iter(match="game:{g1}*")) == keys
    assert store.end_game("g1", playing.version)
    assert list(client.scan_iter(match="game:{g1}*")) == []
    client.set("game:{g1}:watched", "1", ex=600)  # what a gone game may leave behind
    assert store.end_game("g1", None) and store.end_game("g1", playing.version)
    assert list(client.scan_iter(match="game:{g1}*")) == []


def test_an_end_that_the_replicas_do_not_confirm_is_not_taken_as_done(client):
    """No replica here: with one required, the game's keys are deleted but the end raises, so the writer does
    not show the record until a retry is confirmed."""
    store = RedisStore(client, ttl_seconds=600, idem_ttl=300, wait_replicas=1, wait_timeout_ms=10, recent_size=0)
    client.hset("game:{g1}", mapping={"v": 3})
    with pytest.raises(NotReplicated):
        store.end_game("g1", 3)
    assert not client.exists("game:{g1}")
