"""The records outbox's contract (:class:`services.api.store.record_outbox.RecordOutbox`): one claimant per due
entry, a finished game's record taken as written only at the version recorded, a game held (never shortened)
while its record waits, and an abandoned game ended whole, only at the version recorded — the same on the memory
store, one Redis and the Redis Cluster.  Due times lie far past now, so a cluster-mode server's records writer in
the same session leaves them alone.  Then Redis only: the expiry a finished game loses and gets back, every key
an end deletes, and an end the replicas do not confirm."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from services.api.games.record import GameRecord
from services.api.store.protocol import KEY_DIGEST_BYTES, NotReplicated, idempotency_key
from services.api.store.redis_record_outbox import outbox_set
from services.api.store.redis_store import RedisStore

from ..records.conftest import stored_game
from .contract import Names, forget_turn

T = 100_000_000_000.0  # Unix seconds, about the year 5138
DAY = 24 * 3600
ENTRY = b"k" * KEY_DIGEST_BYTES + b"the stored response"


@pytest.fixture
def ids(store) -> Iterator[Names]:
    """The test's game ids; their entries leave the (shared) outbox and timers after the test."""
    names = Names()
    yield names
    for game_id in names.made:
        store.record_done(game_id)
        forget_turn(store, game_id)


def test_a_due_entry_is_claimed_once_until_its_lease_ends(store, ids):
    one, two = ids("g1"), ids("g2")
    store.schedule_record(one, T + 100)
    store.schedule_record(two, T + 500)
    assert store.claim_records(T + 99, 10, 10) == []
    assert store.claim_records(T + 100, 10, 10) == [one], "due at its time itself"
    assert store.claim_records(T + 109, 10, 10) == [], "leased to its claimant"
    assert store.claim_records(T + 110, 10, 10) == [one], "the lease ended: its claimant is gone"


def test_claims_take_the_most_overdue_first_up_to_the_limit(store, ids):
    first, second, third, later = ids("a"), ids("b"), ids("c"), ids("d")
    for game_id, due in ((third, T + 3), (first, T + 1), (later, T + 50), (second, T + 2)):
        store.schedule_record(game_id, due)
    assert store.claim_records(T + 10, 60, 2) == [first, second]
    assert store.claim_records(T + 10, 60, 10) == [third]


def test_a_schedule_replaces_the_one_before_it(store, ids):
    game = ids("g")
    store.schedule_record(game, T + 10)
    store.schedule_record(game, T + 20)
    assert store.claim_records(T + 15, 60, 10) == [], "later, even"
    store.schedule_record(game, T + 1)
    assert store.claim_records(T + 15, 60, 10) == [game]


def test_a_done_entry_goes(store, ids):
    game, other = ids("g"), ids("h")
    store.schedule_record(game, T + 1)
    store.schedule_record(other, T + 2)
    store.record_done(game)
    store.record_done(ids("unknown"))
    assert store.claim_records(T + 10, 60, 10) == [other]


def test_a_record_is_written_only_at_the_games_version(store, ids):
    game = ids("g")
    over = stored_game(game)
    assert store.commit(over, None, [])
    store.schedule_record(game, T + 1)
    assert not store.record_written(game, over.version - 1), "a record of an older version"
    assert store.claim_records(T + 1, 60, 10) == [game], "due still"
    assert store.record_written(game, over.version)
    assert store.claim_records(T + 1_000, 60, 10) == [], "its entry went"
    assert store.load(game) is not None, "the game stays until it expires"
    assert not store.record_written(ids("gone"), 1), "no such game"


def test_a_game_kept_for_its_record_expires_no_sooner_and_is_never_shortened(store, ids):
    game = ids("g")
    assert store.commit(stored_game(game, over=False), None, [])
    assert store.game_ttl(game) > DAY, "a game in play expires (GAME_TTL_SECONDS: a week)"
    store.keep_game(game, 10)
    assert store.game_ttl(game) > DAY, "never shortened"
    store.keep_game(game, 10 * DAY)
    assert 9 * DAY < store.game_ttl(game) <= 10 * DAY
    store.keep_game(game, DAY)
    assert store.game_ttl(game) > 9 * DAY, "never shortened"
    assert store.game_ttl(ids("gone")) is None


def test_ending_a_game_deletes_all_of_it_and_only_at_the_version_recorded(store, ids):
    game = ids("g")
    playing = stored_game(game, over=False)
    assert store.commit(playing, None, [{"seq": 1, "type": "x"}], (idempotency_key(game, 2), ENTRY))
    store.record_turn(game, {"task_id": "t", "version": playing.version}, T + 1)
    assert not store.pause_unless_watched(game)
    assert not store.end_game(game, playing.version - 1), "a move since: the game goes on"
    assert not store.end_game(game, None), "expected gone, but it is there"
    assert store.load(game).version == playing.version
    assert store.end_game(game, playing.version)
    assert store.load(game) is None and store.events_after(game, 0, 10) == []
    assert store.idempotent_entry(idempotency_key(game, 2), ENTRY[:KEY_DIGEST_BYTES]) is None
    assert store.pending_turn(game) is None
    assert not store.watch(game, 60), "its paused mark went too"


def test_ending_a_gone_game_is_done(store, ids):
    game = ids("g")
    assert store.end_game(game, None)
    assert store.end_game(game, 7), "nothing at another version: what is left of it goes"
    store.watch(game, 60)  # what a gone game may leave behind
    assert store.end_game(game, None)


# ---- Redis only: expiry, the keys themselves, replicas ---------------------------------------------------


@pytest.fixture
def client(private_redis_url) -> redis.Redis:
    return redis.Redis.from_url(private_redis_url)


def store_of(client: redis.Redis) -> RedisStore:
    return RedisStore(
        GameRecord.from_stored,
        client,
        ttl_seconds=600,
        idem_ttl=300,
        finished_ttl=60,
        keep_finished=True,
        recent_size=0,
    )


@pytest.mark.integration
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


@pytest.mark.integration
def test_keeping_a_game_holds_every_key_it_expires_with(client):
    store = store_of(client)
    assert store.commit(stored_game("g1", over=False), None, [{"seq": 1, "type": "x"}])
    store.keep_game("g1", 3600)
    assert 3500 < client.ttl("game:{g1}") <= 3600 and 3500 < client.ttl("game:{g1}:events") <= 3600


@pytest.mark.integration
def test_ending_a_game_deletes_every_key_of_it_at_once(client):
    store = store_of(client)
    playing = stored_game("g1", over=False)
    assert store.commit(playing, None, [{"seq": 1, "type": "x"}], ("game:{g1}:idem:2", b"entry"))
    for key in ("game:{g1}:ai", "game:{g1}:watched", "game:{g1}:paused"):
        client.set(key, "1", ex=600)
    keys = sorted(key.decode() for key in client.scan_iter(match="game:{g1}*"))
    assert len(keys) == 6
    assert not store.end_game("g1", playing.version - 1)  # a move since: the game goes on, whole
    assert sorted(key.decode() for key in client.scan_iter(match="game:{g1}*")) == keys
    assert store.end_game("g1", playing.version)
    assert list(client.scan_iter(match="game:{g1}*")) == []


@pytest.mark.integration
def test_an_end_that_the_replicas_do_not_confirm_is_not_taken_as_done(client):
    """No replica here: with one required, the game's keys are deleted but the end raises, so the writer does
    not show the record until a retry is confirmed."""
    store = RedisStore(
        GameRecord.from_stored,
        client,
        ttl_seconds=600,
        idem_ttl=300,
        wait_replicas=1,
        wait_timeout_ms=10,
        recent_size=0,
    )
    client.hset("game:{g1}", mapping={"v": 3})
    with pytest.raises(NotReplicated):
        store.end_game("g1", 3)
    assert not client.exists("game:{g1}")
