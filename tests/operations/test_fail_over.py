"""docs/operations.md, "Fail over", run as written on a loopback Cluster of three masters with a replica each:
the planned failover (``cluster-checks``, ``fail-over``) gives a master's slots to its replica, the old master
follows it, and a game-store client reads every key it wrote before and writes again after; and a game played
through it on an API in cluster mode (moves acknowledged once a replica has them) sees only ``200`` or ``503``
and loses no acknowledged move."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from redis.cluster import RedisCluster

from testkit import runbook
from testkit.fault_drills import acknowledged_lost, start_game
from testkit.redis_cluster import LoopbackCluster, free_base_port, loopback_cluster, until
from tests.conftest import cluster_env, run_gunicorn

pytestmark = pytest.mark.integration

BLOCKS = ("cluster-checks", "fail-over")
LONG_GAME = {"preset": "partnership", "win_score": 500, "lose_score": -500}  # still played after the failover
KEYS = [f"game:{{{i}}}:meta" for i in range(60)]  # one slot each, spread over the masters


@pytest.fixture(scope="module")
def cluster() -> Iterator[LoopbackCluster]:
    """One Cluster for the module: a planned failover leaves it whole, its masters swapped."""
    with loopback_cluster(free_base_port(6)) as made:
        yield made


def test_a_planned_failover_swaps_a_master_and_its_replica_and_keeps_every_key(cluster):
    client = RedisCluster(host="127.0.0.1", port=cluster.ports[0], socket_timeout=2)
    for key in KEYS:
        client.set(key, key.upper())
    master = cluster.master_of(KEYS[0])
    other = next(port for port in sorted(set(cluster.slot_owners())) if port != master)
    env = {"CLUSTER_NODE": cluster.address(other), "MASTER": cluster.address(master)}
    with runbook.work_dir("spades-failover-") as work:
        ran = runbook.run(BLOCKS, env, work)
    promoted = int(ran.stdout.split()[-1].rsplit(":", 1)[1])

    assert promoted != master and cluster.master_of(KEYS[0]) == promoted
    replication = cluster.node(master).info("replication")
    assert (replication["role"], replication["master_port"]) == ("slave", promoted), "the old master follows it"
    assert master not in cluster.slot_owners() and 0 not in cluster.slot_owners(), "every slot served, none by it"
    assert [client.get(key) for key in KEYS] == [key.upper().encode() for key in KEYS], "nothing lost"
    client.set(KEYS[0], "after")  # the client follows the slot to the new master
    assert cluster.node(promoted).get(KEYS[0]) == b"after"
    client.close()


def test_a_game_played_through_a_planned_failover_loses_no_acknowledged_move(cluster):
    env = cluster_env(cluster, AI_ENABLED="0", RECORDS_ENABLED="0", LOBBY_SWEEPER_ENABLED="0")
    with run_gunicorn(env, workers=1) as base:
        game_id, player, play = start_game(base, LONG_GAME)
        until(lambda: len(play.acked) >= 10 or play.error, "moves before the failover", 60)
        master = cluster.master_of(f"game:{{{game_id}}}")
        other = next(port for port in sorted(set(cluster.slot_owners())) if port != master)
        env = {"CLUSTER_NODE": cluster.address(other), "MASTER": cluster.address(master)}
        with runbook.work_dir("spades-failover-") as work:
            runbook.run(BLOCKS, env, work)
        after = len(play.acked)
        until(lambda: len(play.acked) >= after + 10 or play.error, "moves after the failover", 60)
        play.stop.set()
        player.join(timeout=60)
        assert play.error is None, play.error
        assert all(" 503 " in refusal for refusal in play.refused), play.refused  # nothing but a 503 refused
        assert acknowledged_lost(base, game_id, play) == 0
        assert cluster.master_of(f"game:{{{game_id}}}") != master
