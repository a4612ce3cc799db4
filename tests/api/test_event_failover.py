"""A duplicate event survives failovers of the Redis master that holds it: 4 pairs, 3 rounds of one deal, on
gunicorn with its store on a loopback Redis Cluster of the test's own, every change acknowledged once a replica
has it (``REDIS_WAIT_REPLICAS=1``).

* Mid-round 1 (one table finished, the other's first bid made) the event's master is SIGKILLed, the drill of
  :func:`testkit.fault_drills.play_through_failover`: its replica is promoted, the killed node comes back as a
  replica, and the event reads as it was (its version, its round's tables; the bid kept).
* The event plays on. Once the last round's tables have finished, the read that finishes the event (a change of
  the event alone) is made while its master's replica is cut off (frozen, its link dropped): the change is on the
  master only, so it is answered ``503 not_replicated``, not acknowledged. That master is then killed and the
  replica that lacks the change promoted; the next read finishes the event again.
* Every event the API answered is in its history (each round's tables those its boards' scoresheets name, the
  versions in order), every round's tables were dealt the same cards, the standings rank the four pairs over the
  three boards, and the stored document is the last version read, its rounds kept.

Every seat is a pair's bot playing random legal moves (``play_table`` of ``test_duplicate_event``): no AI worker."""

from __future__ import annotations

import random

import orjson
import pytest
import requests
from redis.cluster import RedisCluster

from services.api.events.model import Event
from spades_client import SpadesClient
from spades_client.events import EventDetail
from testkit.redis_cluster import LoopbackCluster, free_base_port, loopback_cluster, until
from tests.conftest import cluster_env, run_gunicorn

from .helpers import wait_until
from .test_duplicate_event import play_table, started_event

pytestmark = pytest.mark.integration
PAIRS, ROUNDS = 4, 3


class Reads:
    """``GET /v1/events/{id}`` as a client makes it; every event it was answered (200), in order."""

    def __init__(self, base: str, event_id: str) -> None:
        self.url = f"{base}/v1/events/{event_id}"
        self.answered: list[EventDetail] = []

    def read(self) -> requests.Response:
        response = requests.get(self.url, timeout=30)
        if response.status_code == 200:
            self.answered.append(EventDetail.from_dict(response.json()))
        return response

    def event(self) -> EventDetail:
        """The event, read again through the 503s of a failover."""
        wait_until(lambda: self.read().status_code == 200, "the event was not answered after the failover")
        return self.answered[-1]


def fail_over(cluster: LoopbackCluster, master: int, key: str, frozen: int | None = None) -> None:
    """``master`` (serving ``key``) SIGKILLed and a replica promoted (``frozen``, a replica cut off, woken first);
    the killed node started again: it rejoins as a replica."""
    cluster.kill(master)
    if frozen is not None:
        cluster.thaw(frozen)
    until(lambda: cluster.master_of(key) != master, "a replica promoted", 60)
    if frozen is not None:
        assert cluster.master_of(key) == frozen, "the replica behind its master is the one promoted"
    cluster.restart(master)
    until(cluster.healthy, "every master with a linked replica again", 60)


def test_a_duplicate_event_plays_on_through_failovers_of_its_master_and_loses_nothing_answered():
    rng = random.Random(31)
    with loopback_cluster(free_base_port(6)) as cluster:
        env = cluster_env(cluster, AI_ENABLED="0", LOBBY_SWEEPER_ENABLED="0")
        with run_gunicorn(env, workers=2) as base:
            by_id, event = started_event(base, "Failover night", PAIRS, ROUNDS)
            director = next(iter(by_id.values())).events
            key, reads, spectator = f"event:{{{event.event_id}}}", Reads(base, event.event_id), SpadesClient(base)

            # mid-round 1: the event's master killed
            first, second = event.current_round.tables
            finals = {1: [play_table(by_id, spectator, first, rng)]}
            view = spectator.get_game(second.game_id)
            bidder = by_id[view.seats[view.turn].player.id].play.as_seat("")
            bidder.take_my_seat(second.game_id, view.turn)
            mine = bidder.get_game(second.game_id)
            bid = bidder.move(second.game_id, mine.legal[0], version=mine.version)
            before = reads.event()
            fail_over(cluster, cluster.master_of(key), key)
            after = reads.event()
            assert (after.version, after.current_round) == (before.version, before.current_round)
            assert spectator.get_game(second.game_id).version == bid.version, "the bid made before is kept"
            finals[1].append(play_table(by_id, spectator, second, rng))

            for number in range(2, ROUNDS + 1):
                current = reads.event().current_round
                assert current.number == number
                finals[number] = [play_table(by_id, spectator, table, rng) for table in current.tables]

            # the event finished by a read on a master whose replica is behind it, then that master lost
            master = cluster.master_of(key)
            frozen = cluster.cut_off(master)
            unconfirmed = reads.read()
            answer = (unconfirmed.status_code, unconfirmed.json().get("code"))
            assert answer == (503, "not_replicated"), "a change no replica has is not acknowledged"
            fail_over(cluster, master, key, frozen)
            final = reads.event()

            assert final.status == "finished"
            versions = [e.version for e in reads.answered]
            assert versions == sorted(versions) and versions[-1] == final.version
            answered: dict[int, EventDetail] = {}
            for seen in reads.answered:
                assert answered.setdefault(seen.version, seen) == seen, "a version answered is one event"
            for number, views in finals.items():
                assert len({tuple(map(tuple, v.history[0].hands)) for v in views}) == 1, f"round {number}'s cards"
            for board in range(1, ROUNDS + 1):
                sheet = director.get_event_board(event.event_id, board)
                assert all(row.finished and row.matchpoints is not None for row in sheet.tables)
                made = [(row.table, row.ns, row.ew, row.game_id) for row in sheet.tables]
                for seen in reads.answered:
                    if seen.current_round.number == board:
                        assert [(t.table, t.ns, t.ew, t.game_id) for t in seen.current_round.tables] == made
            assert sorted((s.pair, s.top) for s in final.standings) == [(p, 2 * ROUNDS) for p in range(1, PAIRS + 1)]

        client = RedisCluster(host="127.0.0.1", port=cluster.master_of(key), socket_timeout=5)
        try:
            stored = Event.from_json(orjson.loads(client.hget(key, "doc")))
            assert int(client.hget(key, "v")) == stored.version == final.version
        finally:
            client.close()
        assert [r.number for r in stored.rounds] == list(range(1, ROUNDS + 1))
        assert all(r.finished_ms is not None and len(r.results) == len(r.tables) for r in stored.rounds)
