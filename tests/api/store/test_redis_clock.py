"""A game's turn clock in Redis: kept in the game's meta through a commit, and the timers' ``earlier``
registration (``ZADD LT``) only ever brings a deadline sooner."""

from __future__ import annotations

import uuid

import pytest
import redis

from services.api.games import clocks
from services.api.games.record import GameOptions, GameRecord, Seat
from services.api.store.redis_keys import pending_set
from services.api.store.redis_store import RedisStore
from services.engine import make_rules, new_game

pytestmark = pytest.mark.integration


def test_the_clock_is_kept_in_meta_and_an_earlier_registration_never_pushes_a_deadline_back(redis_db1: redis.Redis):
    store = RedisStore(GameRecord.from_stored, redis_db1, ttl_seconds=600, idem_ttl=300, recent_size=0)
    seats = [Seat("human", None, f"t{i}") for i in range(4)]
    record = GameRecord(uuid.uuid4().hex, 1, seats, "", GameOptions(None, clock="fast")).with_state(
        new_game(make_rules("partnership"), 3)
    )
    record.clock = clocks.after_change(clocks.new_clock("fast"), None, record, 1_000, "create")
    assert store.commit(record, None, [])
    assert store.load(record.game_id).clock == record.clock
    game_id, key = record.game_id, pending_set(record.game_id)
    store.expect_turn(game_id, 50.0, earlier=True)  # none registered: registered
    store.expect_turn(game_id, 80.0, earlier=True)
    assert redis_db1.zscore(key, game_id) == 50.0
    store.expect_turn(game_id, 20.0, earlier=True)
    assert redis_db1.zscore(key, game_id) == 20.0
    store.expect_turn(game_id, 90.0)  # the committed turn's own deadline: set as it is
    assert redis_db1.zscore(key, game_id) == 90.0
    redis_db1.zrem(key, game_id)
