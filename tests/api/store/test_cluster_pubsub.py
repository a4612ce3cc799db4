"""The fan-out subscription on a real Redis Cluster (services/api/store/cluster_pubsub.py): a message on any
master's slot is received, unsubscribe stops it, a stale slot map (``MOVED``) makes it raise and
refreshes the map, close ends every reader; and through the API, a move wakes a long poll and a stream
on the cluster at once (each waits far longer than the test's liveness bound)."""

from __future__ import annotations

import itertools
import threading
import uuid
from collections.abc import Iterator

import pytest
import requests
from redis.cluster import ClusterNode, RedisCluster

from services.api.store.cluster_pubsub import ClusterSubscription, SubscriptionLost
from services.api.store.protocol import Notice, notify_channel

from ..contract import ContractSession
from ..helpers import auth, create_game, wait_until, waiting
from ..sse import events_until, open_stream

pytestmark = pytest.mark.integration
BOUND = 10.0  # seconds: a liveness bound, far below every wait the code under test could fall back on


@pytest.fixture
def client(redis_cluster) -> Iterator[RedisCluster]:
    host, port = redis_cluster.nodes.split(",")[0].split(":")
    cluster = RedisCluster(host=host, port=int(port))
    yield cluster
    cluster.close()


def _channels_by_master(client: RedisCluster, per_master: int = 1) -> dict[str, list[str]]:
    """``per_master`` fresh notify channels on each master, by master name."""
    found: dict[str, list[str]] = {node.name: [] for node in client.get_primaries()}
    prefix = uuid.uuid4().hex
    for i in itertools.count():
        channel = notify_channel(f"{prefix}-{i}")
        owned = found[client.get_node_from_key(channel).name]
        if len(owned) < per_master:
            owned.append(channel)
        if all(len(channels) == per_master for channels in found.values()):
            return found
    raise AssertionError("unreachable")


def _notices(subscription: ClusterSubscription, count: int) -> list[Notice]:
    received = []
    while len(received) < count:
        notice = subscription.receive(BOUND)
        assert notice is not None, f"only {received} within {BOUND} s"
        received.append(notice)
    return received


def _subscribers(client: RedisCluster, channel: str) -> int:
    master = client.get_redis_connection(client.get_node_from_key(channel))
    return int(master.execute_command("PUBSUB", "SHARDNUMSUB", channel)[1])


def test_a_message_on_each_masters_slot_is_received_and_unsubscribe_stops_it(client):
    by_master = _channels_by_master(client, per_master=2)
    subscription = ClusterSubscription(client, lambda node: None)
    channels = [channel for owned in by_master.values() for channel in owned]
    try:
        for channel in channels:
            subscription.subscribe(channel)
        assert sorted(_notices(subscription, len(channels))) == sorted(("subscribed", c, None) for c in channels)
        assert len(subscription.threads()) == len(by_master) == 3, "one reader per master"
        for i, channel in enumerate(channels):
            client.spublish(channel, f"[{i}]")
        expected = [("message", channel, f"[{i}]".encode()) for i, channel in enumerate(channels)]
        assert sorted(_notices(subscription, len(channels))) == sorted(expected)

        gone, kept = next(iter(by_master.values()))  # two channels of one master: one connection, in order
        subscription.unsubscribe(gone)
        client.spublish(gone, "[0]")
        client.spublish(kept, "[1]")
        assert _notices(subscription, 1) == [("message", kept, b"[1]")], "nothing after unsubscribe"
        assert _subscribers(client, gone) == 0 and _subscribers(client, kept) == 1
    finally:
        subscription.close()


def test_close_ends_every_reader_and_leaves_no_subscriber(client):
    channels = [owned[0] for owned in _channels_by_master(client).values()]
    subscription = ClusterSubscription(client, lambda node: None)
    for channel in channels:
        subscription.subscribe(channel)
    _notices(subscription, len(channels))
    readers = subscription.threads()
    assert len(readers) == 3 and all(reader.is_alive() for reader in readers)
    subscription.close()
    for reader in readers:
        reader.join(BOUND)
    assert not any(reader.is_alive() for reader in readers)
    assert [_subscribers(client, channel) for channel in channels] == [0, 0, 0], "connections closed"


def test_a_stale_slot_map_makes_receive_raise_and_is_refreshed(client):
    """A channel routed to the wrong master (as after a failover) is answered MOVED: ``receive`` raises,
    the map is refreshed, and the next subscription reaches the slot's master."""
    by_master = _channels_by_master(client)
    (owner, [channel]), (other, _) = list(by_master.items())[:2]
    refreshed: list[str] = []

    def refresh(node: ClusterNode) -> None:
        refreshed.append(node.name)
        client.nodes_manager.initialize()

    client.nodes_manager.slots_cache[client.keyslot(channel)] = [client.get_node(node_name=other)]  # stale
    stale = ClusterSubscription(client, refresh)
    try:
        stale.subscribe(channel)
        with pytest.raises(SubscriptionLost, match="MovedError"):
            _notices(stale, 1)
    finally:
        stale.close()
    assert refreshed == [other] and client.get_node_from_key(channel).name == owner

    fresh = ClusterSubscription(client, refresh)
    try:
        fresh.subscribe(channel)
        assert _notices(fresh, 1) == [("subscribed", channel, None)]
    finally:
        fresh.close()


def test_a_move_wakes_a_stream_and_a_long_poll_on_the_cluster(cluster_api):
    """Both wait longer than BOUND (the stream's heartbeat is 15 s, the long poll's ``wait=30``), so only
    a published notice ends them within it.  The stream has read the store before the move (it sent the
    event before it), so its wake-up can only come from the notice; the long poll may also have been
    joining still (test_cluster.py's long poll over a whole game of computers covers it)."""
    session = ContractSession(cluster_api)
    created = create_game(session, seats=[{"type": "human"}] * 4)
    game_id, tokens, seat = created["game_id"], [s["token"] for s in created["seats"]], created["state"]["turn"]
    after = session.get(f"/v1/games/{game_id}").json()["last_seq"]
    woken: dict[str, list[dict]] = {}
    stream = open_stream(cluster_api, game_id, after=after - 1)
    assert [e["seq"] for e in events_until(stream, after)] == [after]  # the stream's first read is done

    def long_poll() -> None:
        url, params = f"{cluster_api}/v1/games/{game_id}/events", {"after": after, "wait": 30}
        woken["poll"] = requests.get(url, params=params, timeout=60).json()["events"]

    def read_stream() -> None:
        woken["stream"] = events_until(stream, after + 1)

    threads = [threading.Thread(target=read_stream), threading.Thread(target=long_poll)]
    try:
        for thread in threads:
            thread.start()
        wait_until(lambda: waiting(cluster_api)["listeners"] >= 2, "the clients never waited", BOUND)
        bid = session.post(f"/v1/games/{game_id}/bids", json={"bid": 2}, headers=auth(tokens[seat]))
        assert bid.status_code == 200
        for thread in threads:
            thread.join(BOUND)
        assert not any(thread.is_alive() for thread in threads), "a waiting client was not woken by the move"
    finally:
        stream.close()
    assert [e["type"] for e in woken["poll"]] == [e["type"] for e in woken["stream"]] == ["bid"]
    assert woken["poll"][0]["seq"] == woken["stream"][0]["seq"] == after + 1
