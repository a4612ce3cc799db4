"""Failover without loss: the master holding a game's slot is SIGKILLed mid-play (benchmarks/failover.py); and a
shard's failover is an outage of the service's heartbeat, given back to the turn clocks.

The replica takes over, the game finishes, and every move the API acknowledged
(2xx, after WAIT saw a replica have it) is in the final game; a stream open on
the game throughout delivers every event once.  ``pytest -s`` shows the figures.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
import redis
import requests

from services.api.config import load_config
from services.api.games.record import GameRecord
from services.api.store.redis_keys import heartbeat_keys
from services.api.store.redis_store import make_store
from testkit.fault_drills import play_through_failover
from testkit.processes import gunicorn
from testkit.redis_cluster import MASTERS, free_base_port, loopback_cluster, until
from tests.conftest import cluster_env

from .sse import messages, open_stream

pytestmark = pytest.mark.integration
BOUND = 10.0  # seconds: a liveness bound, below the stream's 15 s heartbeat (its fallback re-read)


def _follow(base: str, game_id: str, seen: list[dict[str, Any]], stop: threading.Event) -> None:
    """A spectator's stream to ``game_over``, resumed with ``Last-Event-ID`` whenever it ends or fails."""
    while not stop.is_set():
        last = seen[-1]["seq"] if seen else 0
        try:
            with open_stream(base, game_id, last_event_id=last, timeout=30) as response:
                if response.status_code != 200:  # a 503 while the game's master is down
                    stop.wait(0.05)
                    continue
                for message in messages(response):
                    if message.logged:
                        seen.append(message.json())
                        if message.event == "game_over":
                            return
        except requests.RequestException:
            stop.wait(0.05)  # the retry pause of a reconnecting client


def test_killing_the_games_master_loses_no_acknowledged_move(cluster_api, redis_cluster):
    seen: list[dict[str, Any]] = []
    stop = threading.Event()
    followers: list[tuple[str, threading.Thread]] = []

    def follow(game_id: str) -> None:
        follower = threading.Thread(target=_follow, args=(cluster_api, game_id, seen, stop))
        follower.start()
        followers.append((game_id, follower))

    try:
        figures = play_through_failover(cluster_api, redis_cluster, on_created=follow)
        [(game_id, follower)] = followers
        follower.join(BOUND)  # the fan-out hub is back on the promoted master: game_over arrives at once
        assert not follower.is_alive(), "the stream did not deliver the end of the game promptly"
    finally:
        stop.set()
    final = requests.get(f"{cluster_api}/v1/games/{game_id}/events", params={"after": 0}, timeout=30).json()
    assert _logged(seen) == _logged(final["events"]), "the stream carried every event of the game once, in order"
    print("\nfailover:", json.dumps(figures))
    assert figures["game_finished"]
    assert figures["acknowledged_moves_lost"] == 0
    assert figures["moves_applied"] == figures["moves_acknowledged"]  # every applied move was answered too
    assert figures["acknowledged_before_kill"] < figures["moves_acknowledged"], "play went on after the failover"
    assert figures["refused_or_failed_during_failover"], "the kill was noticed by the client"
    assert redis_cluster.healthy()


def test_a_master_lost_for_good_with_two_replicas_loses_no_acknowledged_move():
    """Two replicas per master: the killed master never returns, one replica is promoted and the other
    follows it, so the shard's moves are confirmed (WAIT 1) again without anyone adding a node."""
    with loopback_cluster(free_base_port(MASTERS * 3), replicas=2) as cluster:
        env = cluster_env(cluster, AI_ENABLED="0")
        with gunicorn(env["REDIS_URL"], workers=2, threads=8, env=env) as base:
            figures = play_through_failover(base, cluster, restart=False)
    print("\nmaster lost for good:", json.dumps(figures))
    assert figures["game_finished"] and not figures["killed_node_restarted"]
    assert figures["acknowledged_moves_lost"] == 0
    assert figures["moves_applied"] == figures["moves_acknowledged"]
    assert figures["acknowledged_before_kill"] < figures["moves_acknowledged"], "play went on after the failover"


def test_a_shards_failover_stops_the_services_heartbeat_and_is_an_outage_given_back():
    """On a cluster a beat pings every master first: while one shard's master is gone (its games answer 503) no
    beat is written, and the first one after the promotion records the gap, for every turn clock."""
    with loopback_cluster(free_base_port(MASTERS * 2)) as cluster:
        config = load_config({"REDIS_CLUSTER_NODES": cluster.nodes})
        store = make_store(config, GameRecord.from_stored)
        try:
            beat, _ = heartbeat_keys()
            victim = next(
                port for port in cluster.ports if port != cluster.master_of(beat) and is_master(cluster, port)
            )
            last = int(time.time() * 1000)
            assert store.beat(last, 1_000, 60_000)[0] is False
            cluster.kill(victim)
            answered: list[tuple[bool, list[tuple[int, int]]]] = []

            def beats() -> bool:
                try:
                    answered.append(store.beat(int(time.time() * 1000), 1_000, 60_000))
                except (redis.RedisError, OSError):
                    return False  # the dead master does not answer its ping: no beat
                return True

            until(beats, "a beat once a replica took the dead master's slots", 60)
            recorded, outages = answered[-1]
            assert recorded and outages[-1][0] == last, "the gap from the last beat before the kill is an outage"
            assert outages[-1][1] - last > 1_000
            cluster.restart(victim)
            until(cluster.healthy, "every master with a linked replica again", 60)
        finally:
            store.client.close()


def is_master(cluster, port: int) -> bool:
    return cluster.node(port).info("replication")["role"] == "master"


def _logged(events: list[dict]) -> list[dict]:
    """Events as logged: a ``turn_clock``'s ``server_time_ms`` is the time each reader was sent it."""
    return [{**e, "data": {k: v for k, v in e["data"].items() if k != "server_time_ms"}} for e in events]
