"""The waiting slots' contract (:class:`services.api.store.waiting_slots.WaitingSlots`): each holder's slots among
the waiting requests, capped, with the same results on the memory store, one Redis and the Redis Cluster (where a
take is one script per holder, the earlier ones given back on a refusal).  Leases lie far past now: Redis keeps a
holder's key until its last lease.  Then Redis only: a lease that lapses in real time frees its slot (a process
that died) and takes its holder's key with it."""

from __future__ import annotations

import time

import pytest
import redis

from services.api.games.quotas import creator_ids
from services.api.games.record import GameRecord
from services.api.live.waiting_caps import WaitingCaps, take_slot
from services.api.problems import ApiError
from services.api.store.redis_keys import waiting_key
from services.api.store.redis_store import RedisStore

from ..helpers import wait_until

NOW = 4_000_000_000.0  # Unix seconds, in 2096
UNTIL = NOW + 90
ALICE = "192.0.2.1"


def test_a_holder_holds_slots_up_to_its_cap_and_a_release_frees_one(store, ids):
    holder = ids("h")
    assert store.take_waiting([(holder, 2)], "one", NOW, UNTIL) is None
    assert store.take_waiting([(holder, 2)], "two", NOW, UNTIL) is None
    assert store.take_waiting([(holder, 2)], "three", NOW, UNTIL) == holder
    store.release_waiting([holder], "one")
    assert store.take_waiting([(holder, 2)], "three", NOW, UNTIL) is None
    store.release_waiting([holder], "one")  # released already: nothing more freed
    assert store.take_waiting([(holder, 2)], "four", NOW, UNTIL) == holder


def test_a_held_slot_taken_again_is_accepted_at_the_cap(store, ids):
    holder = ids("h")
    assert store.take_waiting([(holder, 1)], "one", NOW, UNTIL) is None
    assert store.take_waiting([(holder, 1)], "one", NOW + 1, UNTIL + 1) is None, "a re-sent take"
    assert store.take_waiting([(holder, 1)], "two", NOW + 1, UNTIL) == holder


def test_a_refusal_names_the_first_holder_at_its_cap_and_no_holder_holds_the_slot(store, ids):
    address, token = ids("address"), ids("token")
    assert store.take_waiting([(token, 1)], "elsewhere", NOW, UNTIL) is None
    assert store.take_waiting([(address, 2), (token, 1)], "slot", NOW, UNTIL) == token
    assert store.take_waiting([(address, 1)], "another", NOW, UNTIL) is None, "the address holds nothing"
    assert store.take_waiting([(address, 1), (token, 1)], "third", NOW, UNTIL) == address, "the first refusing"


def test_holders_hold_apart_and_one_release_spans_several(store, ids):
    address, token, other = ids("address"), ids("token"), ids("other")
    assert store.take_waiting([(address, 1), (token, 1)], "slot", NOW, UNTIL) is None
    assert store.take_waiting([(other, 1)], "slot", NOW, UNTIL) is None, "another holder's cap"
    assert store.take_waiting([(address, 1)], "next", NOW, UNTIL) == address
    assert store.take_waiting([(token, 1)], "next", NOW, UNTIL) == token
    store.release_waiting([address, token], "slot")
    assert store.take_waiting([(address, 1), (token, 1)], "next", NOW, UNTIL) is None


def test_a_slot_counts_until_its_lease_ends_and_not_after(store, ids):
    holder = ids("h")
    store.take_waiting([(holder, 1)], "dead", NOW, NOW + 10)  # its process died: never renewed nor released
    assert store.take_waiting([(holder, 1)], "new", NOW + 10, UNTIL) == holder, "ends at NOW + 10: held then"
    assert store.take_waiting([(holder, 1)], "new", NOW + 10.5, UNTIL) is None, "lapsed: dropped"


def test_a_renewal_pushes_the_lease_ahead(store, ids):
    holder = ids("h")
    store.take_waiting([(holder, 1)], "one", NOW, NOW + 10)
    store.renew_waiting([holder], "one", NOW + 5, NOW + 20)
    assert store.take_waiting([(holder, 1)], "two", NOW + 15, UNTIL) == holder


def test_a_renewal_holds_the_slot_whatever_the_cap_even_after_a_lapse(store, ids):
    """A slot whose lease lapsed while its request still waited (a renewal missed under load) counts again."""
    address, token = ids("address"), ids("token")
    assert store.take_waiting([(address, 1), (token, 1)], "one", NOW, NOW + 10) is None
    assert store.take_waiting([(address, 1)], "two", NOW + 11, UNTIL) is None, "one lapsed"
    store.renew_waiting([address, token], "one", NOW + 12, UNTIL)
    assert store.take_waiting([(address, 2)], "three", NOW + 12, UNTIL) == address, "one and two: past its cap of 1"
    assert store.take_waiting([(token, 1)], "three", NOW + 12, UNTIL) == token
    store.release_waiting([address], "two")
    assert store.take_waiting([(address, 2)], "three", NOW + 12, UNTIL) is None


# ---- Redis only: real time ----------------------------------------------------------------------------


def store_of(client: redis.Redis) -> RedisStore:
    return RedisStore(GameRecord.from_stored, client, ttl_seconds=600, idem_ttl=300, recent_size=0)


@pytest.mark.integration
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


@pytest.mark.integration
def test_a_holders_key_lives_as_long_as_its_latest_lease(private_redis_url: str) -> None:
    client = redis.Redis.from_url(private_redis_url)
    store = store_of(client)
    holder, now = creator_ids(ALICE, None)[0], time.time()  # leases are Unix times: the key expires at the last
    assert store.take_waiting([(holder, 1)], "one", now, now + 10) is None
    store.renew_waiting([holder], "two", now + 21, now + 3600)  # "one" lapsed meanwhile: dropped
    assert [m.decode() for m in client.zrange(waiting_key(holder), 0, -1)] == ["two"]
    assert 3_000_000 < client.pttl(waiting_key(holder)) <= 3600_000
    store.release_waiting([holder], "two")
    assert not client.exists(waiting_key(holder))
