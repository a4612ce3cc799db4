"""The table life contract (:class:`services.api.store.table_life.TableLifeStore`): presence leases and their
notices, quick messages within their seat's rate, rejoin codes used once — the same on the memory store, one Redis
and the Redis Cluster (whose notices go out on the game's shard channel).  Lease ends lie far past now: Redis
keeps the presence key a while after the last one.  Then Redis only: every key in the game's slot, expiring with
the game."""

from __future__ import annotations

import os

import orjson
import pytest
import redis
from redis.crc import key_slot

from services.api.games.record import GameRecord
from services.api.store.protocol import notify_channel
from services.api.store.redis_keys import game_key
from services.api.store.redis_store import RedisStore
from services.api.store.redis_table_life import LAPSED_KEPT_MS, messages_key, presence_key, rejoin_key, said_key
from services.api.store.table_life import MESSAGES_KEPT, MessageLimits

N = 4_000_000_000_000  # Unix ms, in 2096
OFF = [False] * 4
LIMITS = MessageLimits(gap_ms=10, most=3, window_ms=1000)


@pytest.fixture
def told(store, ids):
    """A game of the test's own and its next notice (a presence change or a message), as a dict."""
    game = ids("g")
    subscription = store.subscription()
    subscription.subscribe(notify_channel(game))
    assert subscription.receive(5)[0] == "subscribed"

    def next_notice() -> dict:
        notice = subscription.receive(5)
        assert notice is not None and notice[0] == "message", notice
        return orjson.loads(notice[2])

    yield game, next_notice
    subscription.close()


def seats(*connected: int) -> list[bool]:
    return [seat in connected for seat in range(4)]


def message(seat: int, code: str, at_ms: int) -> bytes:
    return orjson.dumps({"seat": seat, "code": code, "at_ms": at_ms})


# ---- presence ----------------------------------------------------------------------------------------


def test_a_held_seat_is_connected_until_its_lease_ends_and_each_change_is_told(store, told):
    game, next_notice = told
    assert store.hold_presence(game, 1, N, N + 20_000) == seats(1)
    assert next_notice() == {"notice": "presence", "seats": seats(1)}
    assert store.table_extras(game, N + 19_999)[0] == seats(1)
    assert store.table_extras(game, N + 20_000)[0] == OFF, "its lease ended"
    assert store.hold_presence(game, None, N + 20_000, 0) == OFF
    assert next_notice() == {"notice": "presence", "seats": OFF}


def test_a_lease_is_never_shortened_and_a_hold_that_changes_nothing_tells_nothing(store, told):
    game, next_notice = told
    store.hold_presence(game, 1, N, N + 20_000)
    next_notice()
    assert store.hold_presence(game, 1, N + 1_000, N + 5_000) == seats(1)
    assert store.hold_presence(game, None, N + 10_000, 0) == seats(1), "still held until N + 20 000"
    assert store.hold_presence(game, 2, N + 20_000, N + 30_000) == seats(2)
    assert next_notice() == {"notice": "presence", "seats": seats(2)}, "nothing told in between"


def test_a_change_is_told_against_the_leases_last_told_lapsed_ones_included(store, told):
    game, next_notice = told
    store.hold_presence(game, 0, N, N + 10)
    next_notice()
    assert store.table_extras(game, N + 20)[0] == OFF
    assert store.hold_presence(game, 0, N + 20, N + 100) == seats(0), "lapsed and held again: as last told"
    assert store.hold_presence(game, 3, N + 200, N + 300) == seats(3)
    assert next_notice() == {"notice": "presence", "seats": seats(3)}, "seat 0's lapse told with seat 3's arrival"


def test_presence_is_the_games_own(store, ids):
    game, other = ids("g"), ids("h")
    store.hold_presence(game, 0, N, N + 100)
    assert store.table_extras(other, N)[0] == OFF
    assert store.hold_presence(other, 1, N, N + 100) == seats(1)


# ---- quick messages -------------------------------------------------------------------------------------


def test_a_message_is_kept_and_told_and_one_too_soon_is_neither(store, told):
    game, next_notice = told
    assert store.post_message(game, 2, message(2, "wow", 5), 5, LIMITS) == 0
    assert next_notice() == {"notice": "message", "seat": 2, "code": "wow", "at_ms": 5}
    assert store.post_message(game, 2, message(2, "oops", 6), 6, LIMITS) == 9, "the ms until its gap is over"
    assert store.post_message(game, 3, message(3, "hi", 7), 7, LIMITS) == 0, "each seat has its own rate"
    assert next_notice()["code"] == "hi", "the refused one was not told"
    assert store.table_extras(game, N)[1] == [message(2, "wow", 5), message(3, "hi", 7)]


def test_a_seat_posts_at_most_so_many_in_a_window(store, ids):
    game = ids("g")
    for at in (0, 10, 20):
        assert store.post_message(game, 1, message(1, "x", at), at, LIMITS) == 0
    assert store.post_message(game, 1, message(1, "y", 30), 30, LIMITS) == 970, "until the first leaves the window"
    assert store.post_message(game, 1, message(1, "y", 999), 999, LIMITS) == 1
    assert store.post_message(game, 1, message(1, "y", 1000), 1000, LIMITS) == 0
    assert len(store.table_extras(game, N)[1]) == 4


def test_a_game_keeps_its_last_messages_oldest_first(store, ids):
    game = ids("g")
    for n in range(MESSAGES_KEPT + 3):
        assert store.post_message(game, n % 4, message(n % 4, str(n), n * 100_000), n * 100_000, LIMITS) == 0
    kept = [orjson.loads(raw)["code"] for raw in store.table_extras(game, N)[1]]
    assert kept == [str(n) for n in range(3, MESSAGES_KEPT + 3)]


# ---- rejoin codes ---------------------------------------------------------------------------------------


def test_a_seats_rejoin_code_is_replaced_by_its_next_and_taken_once(store, ids):
    game = ids("g")
    store.set_rejoin_code(game, 0, "aa" + "t0")
    store.set_rejoin_code(game, 3, "bb" + "t3")
    store.set_rejoin_code(game, 3, "cc" + "t3")
    assert store.take_rejoin_code(game, "bb") is None, "replaced"
    assert store.take_rejoin_code(game, "cc") == (3, "cct3")
    assert store.take_rejoin_code(game, "cc") is None, "used once"
    assert store.take_rejoin_code(game, "aa") == (0, "aat0")


def test_a_dropped_rejoin_code_is_gone_and_codes_are_the_games_own(store, ids):
    game, other = ids("g"), ids("h")
    store.set_rejoin_code(game, 0, "aa" + "t0")
    store.set_rejoin_code(game, 1, "dd" + "t1")
    store.drop_rejoin_code(game, 0)
    store.drop_rejoin_code(game, 2)  # none: nothing to drop
    assert store.take_rejoin_code(game, "aa") is None
    assert store.take_rejoin_code(other, "dd") is None
    assert store.take_rejoin_code(game, "dd") == (1, "ddt1")


# ---- Redis only: keys ---------------------------------------------------------------------------------


def test_every_table_life_key_and_its_channel_are_in_the_games_slot() -> None:
    keys = [presence_key("g"), messages_key("g"), said_key("g", 1), rejoin_key("g"), notify_channel("g")]
    assert {key_slot(key.encode()) for key in keys} == {key_slot(game_key("g").encode())}


@pytest.mark.integration
def test_the_keys_expire_with_the_game(private_redis_url: str) -> None:
    store = RedisStore(GameRecord.from_stored, redis.Redis.from_url(private_redis_url), 600, 300, recent_size=0)
    client, game, gone = store.client, "t" + os.urandom(6).hex(), "t" + os.urandom(6).hex()
    client.set(game_key(game), "x", px=300_000)  # the game's hash: its keys take its time left
    assert store.post_message(game, 2, message(2, "wow", 5), 5, LIMITS) == 0
    store.set_rejoin_code(game, 1, "aa" + "t1")
    assert 0 < client.pttl(messages_key(game)) <= 300_000 and 0 < client.pttl(rejoin_key(game)) <= 300_000
    assert 0 < client.pttl(said_key(game, 2)) <= LIMITS.window_ms, "a seat's posts: as long as its window"
    store.set_rejoin_code(gone, 0, "bb" + "t0")
    assert 300 < client.ttl(rejoin_key(gone)) <= 600, "no game hash: the game TTL"
    store.hold_presence(game, 0, N, N + 5_000)
    assert client.pexpiretime(presence_key(game)) == N + 5_000 + LAPSED_KEPT_MS, "a while past its last lease"
