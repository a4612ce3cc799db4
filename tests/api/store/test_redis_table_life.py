"""Table life in a real Redis and on the Redis Cluster (services.api.store.redis_table_life): the scripts keep the
memory store's semantics (tests/api/live/test_presence.py, tests/api/games/test_messages.py), publish their notices
on the game's shard channel, keep every key in the game's slot and expire with the game."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import orjson
import pytest
import redis
from redis.cluster import RedisCluster

from services.api.store.protocol import Subscription, notify_channel
from services.api.store.redis_keys import game_key
from services.api.store.redis_store import RedisStore
from services.api.store.redis_table_life import messages_key, presence_key, rejoin_key, said_key
from services.api.store.table_life import MessageLimits

pytestmark = pytest.mark.integration
ON = [False, True, False, False]


def notices(subscription: Subscription) -> list[dict]:
    """The notices published since the last call (a short wait for each: Redis delivers at once)."""
    found = []
    while (notice := subscription.receive(0.3)) is not None:
        if notice[0] == "message":
            found.append(orjson.loads(notice[2]))
    return found


def check_presence_and_messages(store: RedisStore) -> None:
    game = "t" + os.urandom(6).hex()
    store.client.set(game_key(game), "x", px=600_000)  # the game's hash: its keys expire with it
    subscription = store.subscription()
    subscription.subscribe(notify_channel(game))
    assert subscription.receive(5)[0] == "subscribed"
    try:
        now = int(time.time() * 1000)  # leases are real times: the key expires a while after its last one
        assert store.hold_presence(game, 1, now, now + 20_000) == ON
        assert store.hold_presence(game, 1, now + 1000, now + 5000) == ON  # never shortened, nothing told
        assert (
            store.table_extras(game, now + 19_999)[0] == ON and store.table_extras(game, now + 20_000)[0] == [False] * 4
        )
        assert store.hold_presence(game, None, now + 20_000, 0) == [False] * 4
        limits = MessageLimits(gap_ms=2000, most=10, window_ms=60_000)
        assert store.post_message(game, 2, b'{"seat":2,"code":"wow","at_ms":5}', 5, limits) == 0
        assert store.post_message(game, 2, b'{"seat":2,"code":"oops","at_ms":6}', 6, limits) == 1999
        assert notices(subscription) == [
            {"notice": "presence", "seats": ON},
            {"notice": "presence", "seats": [False] * 4},
            {"notice": "message", "seat": 2, "code": "wow", "at_ms": 5},
        ]
        assert store.table_extras(game, 0)[1] == [b'{"seat":2,"code":"wow","at_ms":5}']
        assert 0 < store.client.pttl(messages_key(game)) <= 600_000 and store.client.pttl(said_key(game, 2)) > 0
    finally:
        subscription.close()


def check_rejoin_codes(store: RedisStore) -> None:
    game = "t" + os.urandom(6).hex()
    store.set_rejoin_code(game, 0, "aa" + "t0")
    store.set_rejoin_code(game, 3, "bb" + "t3")
    store.set_rejoin_code(game, 3, "cc" + "t3")  # replaces seat 3's
    assert 0 < store.client.ttl(rejoin_key(game)) <= 600, "no game hash: the game TTL"
    assert store.take_rejoin_code(game, "bb") is None
    assert store.take_rejoin_code(game, "cc") == (3, "cct3")
    assert store.take_rejoin_code(game, "cc") is None, "used once"
    store.drop_rejoin_code(game, 0)
    assert store.take_rejoin_code(game, "aa") is None


CHECKS = (check_presence_and_messages, check_rejoin_codes)


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__.removeprefix("check_"))
def test_table_life_on_redis(private_redis_url: str, check: Callable[[RedisStore], None]) -> None:
    check(RedisStore(redis.Redis.from_url(private_redis_url), 600, 300, recent_size=0))


def test_table_life_on_the_cluster_in_the_games_slot(redis_cluster) -> None:
    host, port = redis_cluster.nodes.split(",")[0].split(":")
    client = RedisCluster(host=host, port=int(port))
    for check in CHECKS:
        check(RedisStore(client, 600, 300, recent_size=0))
    keys = [presence_key("g"), messages_key("g"), said_key("g", 1), rejoin_key("g"), notify_channel("g")]
    assert {client.keyslot(key) for key in keys} == {client.keyslot(game_key("g"))}
    client.close()
