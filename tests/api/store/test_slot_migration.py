"""Games on a Redis Cluster whose slots move while they are played (a master added or removed: docs/operations.md,
"Reshard").  Each slot is moved by hand, step by step as ``redis-cli --cluster`` moves it (importing on the
target, migrating on the source, ``MIGRATE`` of its keys, then ``SETSLOT … NODE`` on every master), so a request
can be sent at each step:

* a move whose slot is open is refused ``TRYAGAIN`` (its script names keys that are not all on one side) until
  the slot is handed over: the API waits it out and answers 200, with the move made once;
* a write of a key already on the slot's next master is sent there (``ASK``), once;
* a read sent to a new master that owns no slot yet (redis-py's map does not list it) follows the ``ASK``;
* a write whose slot map names a master that has left (its connection refused: nothing was sent) reads the map
  again and goes to the slot's master.

A cluster of its own (three masters, no replicas: nothing here waits for one), since the tests move slots and
add masters.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis

from services.api.app import create_app
from services.api.config import load_config
from services.api.store.redis_client import make_client
from services.api.store.redis_keys import events_key, game_key
from services.api.store.redis_send import AtMostOnce
from testkit.redis_cluster import LoopbackCluster, free_base_port, loopback_cluster, until
from tests.conftest import API_TEST_DB, redis_url

from ..helpers import auth, wait_until

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def cluster() -> Iterator[LoopbackCluster]:
    with loopback_cluster(free_base_port(3), replicas=0) as cluster:
        yield cluster


def store_client(cluster: LoopbackCluster):
    """A client of the game store, as the API makes it (its slot map read now)."""
    return make_client(load_config({"REDIS_CLUSTER_NODES": cluster.nodes}))


class SlotMove:
    """One slot moved from ``source`` to ``target`` (ports of masters), a step at a time."""

    def __init__(self, cluster: LoopbackCluster, key: str, target: int) -> None:
        self.cluster, self.key, self.target = cluster, key, target
        self.source = cluster.master_of(key)
        self.slot = int(cluster.node(self.source).execute_command("CLUSTER", "KEYSLOT", key))

    def open(self) -> None:
        node, ids = self.cluster.node, self.cluster.node_id
        node(self.target).execute_command("CLUSTER", "SETSLOT", self.slot, "IMPORTING", ids(self.source))
        node(self.source).execute_command("CLUSTER", "SETSLOT", self.slot, "MIGRATING", ids(self.target))

    def migrate(self) -> None:
        """Every key of the slot to the target."""
        source = self.cluster.node(self.source)
        keys = source.execute_command("CLUSTER", "GETKEYSINSLOT", self.slot, 1000)
        source.execute_command("MIGRATE", "127.0.0.1", self.target, "", 0, 5000, "KEYS", *keys)

    def close(self) -> None:
        """The slot is the target's, on every master (the target first, as redis-cli does).  A source that gave
        its last slot away may have become the target's replica already (``cluster-allow-replica-migration``),
        which refuses ``SETSLOT``; it follows the target anyway."""
        owners = {port for port in self.cluster.slot_owners() if port}
        target_id = self.cluster.node_id(self.target)
        for port in [self.target, self.source, *sorted(owners - {self.target, self.source})]:
            try:
                self.cluster.node(port).execute_command("CLUSTER", "SETSLOT", self.slot, "NODE", target_id)
            except redis.ResponseError as error:
                if port != self.source or "only with masters" not in str(error):
                    raise
        until(lambda: self.cluster.master_of(self.key) == self.target, "the slot handed over")

    def all(self) -> None:
        self.open()
        self.migrate()
        self.close()


def another_master(cluster: LoopbackCluster, port: int) -> int:
    return min({p for p in cluster.slot_owners() if p} - {port})


def add_master(cluster: LoopbackCluster) -> int:
    """A new, empty master joined to the cluster (``redis-cli --cluster add-node``), known to every master."""
    (port,) = cluster.spare_ports(1)
    cluster.start_node(port)
    masters = {p for p in cluster.slot_owners() if p}
    cli = shutil.which("redis-cli") or "valkey-cli"
    subprocess.run([cli, "--cluster", "add-node", cluster.address(port), cluster.address(min(masters))], check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    until(lambda: cluster.state_ok(port) and all(cluster.knows(p, port) for p in masters), "the new master joined")
    return port


def tryagain_replies(cluster: LoopbackCluster, port: int) -> int:
    return cluster.node(port).info("errorstats").get("errorstat_TRYAGAIN", {}).get("count", 0)


@pytest.fixture(scope="module")
def api(cluster: LoopbackCluster):
    """The API in this process, its games on the cluster (Celery's settings name the tests' plain Redis; no AI)."""
    celery = redis_url(API_TEST_DB)
    config = {
        "REDIS_CLUSTER_NODES": cluster.nodes, "CELERY_BROKER_URL": celery, "CELERY_RESULT_BACKEND": celery,
        "AI_ENABLED": False, "RATE_LIMIT_ENABLED": False, "RECORDS_WRITER_ENABLED": False,
        "LOBBY_SWEEPER_ENABLED": False, "LOG_LEVEL": "WARNING",
    }  # fmt: skip
    return create_app(config).test_client()


def test_a_move_on_a_slot_being_migrated_waits_for_the_slot_and_is_made_once(cluster, api):
    created = api.post("/v1/games", json={"seats": [{"type": "human"}] * 4, "options": {"clock": "none"}}).get_json()
    game_id, seat = created["game_id"], created["state"]["turn"]
    move = SlotMove(cluster, game_key(game_id), another_master(cluster, cluster.master_of(game_key(game_id))))
    refused_before = tryagain_replies(cluster, move.source)
    move.open()
    headers = {**auth(created["seats"][seat]["token"]), "Idempotency-Key": "while-the-slot-moves"}
    with ThreadPoolExecutor(1) as pool:
        answer = pool.submit(api.post, f"/v1/games/{game_id}/bids", json={"bid": 3}, headers=headers)
        wait_until(lambda: tryagain_replies(cluster, move.source) > refused_before, "the move never met the open slot")
        move.migrate()
        move.close()
        response = answer.result(timeout=30)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["version"] == 2
    target = cluster.node(move.target)
    assert int(target.hget(game_key(game_id), "v")) == 2
    bids = [fields for _, fields in target.xrange(events_key(game_id)) if b'"type":"bid"' in fields[b"e"]]
    assert len(bids) == 1, "made once"


def test_a_write_follows_its_key_to_the_next_master_of_its_slot(cluster):
    client, key = store_client(cluster), "game:{ask-write}:probe"
    client.set(key, 1)
    move = SlotMove(cluster, key, another_master(cluster, cluster.master_of(key)))
    move.open()
    move.migrate()  # the key is on the target; the slot is still the source's
    try:
        assert AtMostOnce(client).send_once(key, ("INCR", key)) == [2]
    finally:
        move.close()
    assert int(cluster.node(move.target).get(key)) == 2, "written once, on the target"


def test_a_read_follows_an_ask_to_a_master_that_owns_no_slot_yet(cluster):
    client, key = store_client(cluster), "game:{ask-new}:probe"
    client.set(key, "here")
    new = add_master(cluster)  # the client's map lists the three masters only
    move = SlotMove(cluster, key, new)
    move.open()
    move.migrate()
    try:
        assert client.get(key) == b"here"
    finally:
        move.close()


def test_a_write_to_a_master_that_has_left_goes_to_the_slots_master(cluster):
    key = "game:{gone}:probe"
    store_client(cluster).set(key, 1)
    origin = cluster.master_of(key)
    new = add_master(cluster)
    SlotMove(cluster, key, new).all()
    client = store_client(cluster)  # its map: the slot on the new master
    SlotMove(cluster, key, origin).all()
    for port in {p for p in cluster.slot_owners() if p}:
        cluster.node(port).execute_command("CLUSTER", "FORGET", cluster.node_id(new))
    cluster.processes[new].terminate()
    cluster.processes[new].wait(timeout=10)
    assert AtMostOnce(client).send_once(key, ("INCR", key)) == [2]
    assert int(cluster.node(origin).get(key)) == 2
