"""The arenas' store (:class:`services.api.store.arena_rooms.ArenaRooms`): a batch written only over the version
read, the standings ranked highest first with ties by id, the pool by arrival, the games by when they were put in;
the same on the memory store, one Redis and the Redis Cluster."""

from __future__ import annotations

import pytest
import redis

from services.api.store.arena_rooms import ArenaBatch, MemoryArenaRooms
from services.api.store.memory_store import MemoryStore
from services.api.store.protocol import NotReplicated
from services.api.store.redis_arena_rooms import RedisArenaRooms
from tests.conftest import redis_url

from .contract import CONTRACT_DB


@pytest.fixture
def rooms(store):
    return MemoryArenaRooms() if isinstance(store, MemoryStore) else RedisArenaRooms(store.client)


def test_a_batch_is_written_only_over_the_version_it_was_read_at(rooms, ids):
    arena = ids("a")
    assert rooms.arena_version(arena) == 0 and rooms.arena_entrants(arena, ["x"]) == [None]
    joined = ArenaBatch(entrants={"x": b'{"n":1}', "y": b'{"n":2}'}, standings={"x": 15_00, "y": 15_00})
    joined.pool_add.update({"y": 2, "x": 1})
    assert rooms.write_arena(arena, 0, joined)
    assert not rooms.write_arena(arena, 0, ArenaBatch(entrants={"x": b"lost race"}))
    assert rooms.arena_version(arena) == 1
    assert rooms.arena_entrants(arena, ["y", "x", "z"]) == [b'{"n":2}', b'{"n":1}', None]
    assert rooms.arena_pool(arena) == ["x", "y"], "the longest waiting first"


def test_standings_rank_highest_first_ties_listed_by_id_and_sharing_a_place(rooms, ids):
    arena = ids("a")
    batch = ArenaBatch(standings={"zed": 61_700, "bob": 61_800, "amy": 61_700, "cat": 42_500, "new": 1_900})
    assert rooms.write_arena(arena, 0, batch)
    assert [i for i, _ in rooms.arena_standings(arena, 0, 10)] == ["bob", "amy", "zed", "cat", "new"]
    assert rooms.arena_standings(arena, 1, 2) == [("amy", 61_700), ("zed", 61_700)]
    assert rooms.arena_rank(arena, "cat") == 3 and rooms.arena_rank(arena, "nobody") is None
    assert [rooms.arena_rank(arena, i) for i in ("amy", "zed")] == [1, 1], "tied: one place, the first of them"
    assert [rooms.arena_above(arena, score) for score in (99_999, 61_800, 61_700, 42_500, 0)] == [0, 0, 1, 3, 5]
    assert rooms.write_arena(arena, 1, ArenaBatch(standings={"new": 80_000}))  # a score moves its entrant
    assert rooms.arena_rank(arena, "new") == 0 and rooms.arena_size(arena) == 5


def test_games_in_play_come_longest_first_and_leave_once_scored(rooms, ids):
    arena = ids("a")
    first = ArenaBatch(games_add={"g2": b"two"}, pool_remove=["x"])
    assert rooms.write_arena(arena, 0, first)
    assert rooms.write_arena(arena, 1, ArenaBatch(games_add={"g1": b"one"}))
    assert rooms.arena_games(arena, 10) == [("g2", b"two"), ("g1", b"one")]
    assert rooms.arena_games(arena, 1) == [("g2", b"two")] and rooms.arena_games_count(arena) == 2
    assert rooms.write_arena(arena, 2, ArenaBatch(games_remove=["g2"], pool_add={"x": 5}))
    assert rooms.arena_game(arena, "g2") is None and rooms.arena_game(arena, "g1") == b"one"
    assert rooms.arena_pool(arena) == ["x"]


@pytest.mark.integration
def test_a_write_the_replicas_do_not_confirm_is_made_but_not_acknowledged():
    """No replica here: with one required, the change is made but raises (a 503), as a game's commit does, so a
    failover that loses it never takes back an answered wave or score."""
    client = redis.Redis.from_url(redis_url(CONTRACT_DB))
    client.flushdb()
    try:
        rooms = RedisArenaRooms(client, wait_replicas=1, wait_timeout_ms=10)
        with pytest.raises(NotReplicated):
            rooms.write_arena("a1", 0, ArenaBatch(entrants={"x": b"{}"}, standings={"x": 1}))
        assert rooms.arena_version("a1") == 1 and rooms.arena_entrants("a1", ["x"]) == [b"{}"]
        assert not rooms.write_arena("a1", 0, ArenaBatch(entrants={"x": b"lost race"})), (
            "refused, whatever the replicas"
        )
    finally:
        client.close()
