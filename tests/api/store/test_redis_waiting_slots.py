"""Waiting requests' slots in a real Redis (services.api.store.redis_waiting_slots): the memory store's checks
(tests/api/live/test_waiting_caps.py) on the Lua script, and a lease that lapses in real time: a slot whose
process died frees itself, and its key goes with its last lease."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
import redis

from services.api.games.quotas import creator_ids
from services.api.live.waiting_caps import WaitingCaps, take_slot
from services.api.problems import ApiError
from services.api.store.redis_keys import waiting_key
from services.api.store.redis_store import RedisStore

from ..helpers import wait_until
from ..live.test_waiting_caps import ALICE, CHECKS, Stores

pytestmark = pytest.mark.integration


def store_of(client: redis.Redis) -> RedisStore:
    return RedisStore(client, ttl_seconds=600, idem_ttl=300, recent_size=0)


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__.removeprefix("check_"))
def test_slots_on_redis(private_redis_url: str, check: Callable[[Stores], None]) -> None:
    check(lambda: store_of(redis.Redis.from_url(private_redis_url)))


def test_a_slot_whose_process_died_lapses_in_real_time_and_its_key_goes_with_it(private_redis_url: str) -> None:
    client = redis.Redis.from_url(private_redis_url)
    caps = WaitingCaps(per_address=1, per_token=0, lease_seconds=0.5)
    take_slot(store_of(client), caps, ALICE, None)  # never renewed nor released: its process is gone
    key = waiting_key(creator_ids(ALICE, None)[0])
    assert client.zcard(key) == 1 and 0 < client.pttl(key) <= 500

    def another_process_takes_one() -> bool:
        try:
            take_slot(store_of(client), caps, ALICE, None).release()
        except ApiError:
            return False
        return True

    wait_until(another_process_takes_one, "a dead holder's slot never lapsed", bound=10)
    wait_until(lambda: not client.exists(key), "the holder's key outlived its last lease", bound=10)


def test_a_renewal_takes_a_slot_past_its_cap_and_pushes_the_keys_expiry(private_redis_url: str) -> None:
    """A renewal never refuses: a slot that lapsed while its request still waited (a renewal missed under load)
    counts again; the key lives as long as its latest lease."""
    client = redis.Redis.from_url(private_redis_url)
    store = store_of(client)
    holder, now = creator_ids(ALICE, None)[0], time.time()  # leases are Unix times: the key expires at the last
    assert store.take_waiting([(holder, 1)], "one", now, now + 10) is None
    assert store.take_waiting([(holder, 1)], "two", now + 5, now + 15) == holder
    assert store.take_waiting([(holder, 1)], "one", now + 5, now + 20) is None  # a re-sent take of a held slot
    store.renew_waiting([holder], "two", now + 21, now + 3600)  # "one" lapsed meanwhile: dropped
    assert [m.decode() for m in client.zrange(waiting_key(holder), 0, -1)] == ["two"]
    assert 3_000_000 < client.pttl(waiting_key(holder)) <= 3600_000
    store.release_waiting([holder], "two")
    assert not client.exists(waiting_key(holder))
