"""The game store in Redis: one hash per game, one stream of events per game.

Layout (every key of a game shares the ``{game_id}`` hash tag, so a game lives
in one Redis Cluster slot and one Lua script may touch all of its keys):

* ``game:{id}`` — hash: ``v`` (version, int), ``meta`` (compact JSON: seats
  with token hashes, options, started flag, last event seq, seeded flag),
  ``state`` and ``rounds`` (the engine's :func:`services.engine.to_json_parts`:
  the game without its finished rounds, and those rounds).  ``rounds`` is
  written only when it changes, once a round, so a move writes about 1 KB
  however long the game.
* ``game:{id}:events`` — stream; entry id ``<seq>-0``, field ``e`` = event JSON
  (with per-seat private parts, filtered on read).  Bounded: the commit that
  starts a round trims it to the last ``KEPT_ROUNDS`` rounds
  (:mod:`services.api.games.log_retention`; ``meta`` holds the oldest seq kept).
* ``game:{id}:idem:<seat>`` — the seat's last accepted move sent with an
  ``Idempotency-Key``: the key's SHA-256, then the compacted response
  (:mod:`services.api.games.idempotency`); the seat's next keyed move overwrites it.
* ``game:{id}:notify`` — a shard channel (not a key): each commit publishes (``SPUBLISH``)
  its new events there as a JSON array, for :mod:`services.api.live.fanout`.
* ``game:{id}:ai`` and the sorted sets ``ai:pending:{0}`` … ``ai:pending:{15}``
  — the AI turn in flight and every game's AI deadline
  (:mod:`services.api.ai_seats.dispatch`), the game in the shard its id hashes to, so
  on a cluster the timers are spread over the masters like the games are.
* ``game:{id}:watched`` and ``game:{id}:paused``, and per creator ``quota:{creator}:games`` and
  ``:computer`` — fair share (:mod:`services.api.store.redis_fair_share`).
* ``records:outbox:{0}`` … ``{15}`` — the games whose record is due, scored by when
  (:mod:`services.api.store.redis_record_outbox`).
* ``waiting:{holder}`` — a client's waiting long polls and streams, scored by their leases' ends
  (:mod:`services.api.store.redis_waiting_slots`).
* ``game:{id}:presence``, ``game:{id}:messages``, ``game:{id}:said:<seat>``, ``game:{id}:rejoin`` — who is at the
  table, the quick messages and their rate, the seats' rejoin codes (:mod:`services.api.store.redis_table_life`).
* ``lobby:{tables}:…`` — the public tables' listing and its log of changes
  (:mod:`services.api.store.redis_lobby_tables`); ``mm:{m:<bucket>}:…`` and ``mm:{due}`` — quick match's
  buckets and the buckets due (:mod:`services.api.store.redis_matches`).
* ``player:{<player id>}:games`` — each player's games in play, a hint checked against the games
  (:mod:`services.api.store.redis_player_index`).

Every change goes through :meth:`RedisStore.commit`, a Lua compare-and-set on
``v`` (:mod:`services.api.store.redis_commit`) that writes the record, its events and the idempotency entry at once
and refreshes the TTL (``FINISHED_GAME_TTL_SECONDS`` once the game is over),
so concurrent writers can never lose or double a move.
With ``wait_replicas`` > 0 the commit is followed, on the same connection and
in the same round trip, by ``WAIT``: a commit fewer replicas confirm raises
:class:`~services.api.store.protocol.NotReplicated` instead of being acknowledged.

The client is a ``redis.Redis`` or, with ``REDIS_CLUSTER_NODES``, a
``redis.cluster.RedisCluster`` (:mod:`services.api.store.redis_client`); the commit's own send
(:class:`services.api.store.redis_send.AtMostOnce`) routes to the master of the game's slot itself,
and the fan-out subscription is one connection per master
(:mod:`services.api.store.cluster_pubsub`).
"""

from __future__ import annotations

from typing import Any, Generic

import orjson
import redis
from redis.cluster import RedisCluster

from services.api.store.cluster_pubsub import ClusterSubscription
from services.api.store.protocol import Decode, NotReplicated, RecentCopies, Record, Subscription, entry_answers
from services.api.store.redis_client import make_client
from services.api.store.redis_commit import COMMIT_LUA, CommitTtls, commit_command
from services.api.store.redis_fair_share import RedisFairShare
from services.api.store.redis_keys import events_key, game_key
from services.api.store.redis_lobby_tables import RedisTables
from services.api.store.redis_match_due import RedisMatchDue
from services.api.store.redis_matches import RedisMatches
from services.api.store.redis_player_index import RedisPlayerIndex
from services.api.store.redis_pubsub import RedisSubscription
from services.api.store.redis_record_outbox import RedisRecordOutbox
from services.api.store.redis_send import AtMostOnce
from services.api.store.redis_table_life import RedisTableLife
from services.api.store.redis_timers import RedisTimers
from services.api.store.redis_waiting_slots import RedisWaitingSlots


class RedisStore(
    RedisTimers,
    RedisFairShare,
    RedisRecordOutbox,
    RedisWaitingSlots,
    RedisTableLife,
    RedisTables,
    RedisMatches,
    RedisMatchDue,
    RedisPlayerIndex,
    Generic[Record],
):
    """:class:`services.api.store.protocol.GameStore` in Redis (see module docstring), reading games back with
    ``decode``."""

    def __init__(
        self,
        decode: Decode[Record],
        client: redis.Redis | RedisCluster,
        ttl_seconds: int,
        idem_ttl: int,
        recent_size: int = 4096,
        wait_replicas: int = 0,
        wait_timeout_ms: int = 500,
        finished_ttl: int | None = None,
        keep_finished: bool = False,
    ) -> None:
        self.decode = decode
        self.client = client  # a redis.Redis, or a RedisCluster
        self.ttl_seconds = ttl_seconds
        self.idem_ttl = idem_ttl
        self.wait_replicas = wait_replicas
        self.wait_timeout_ms = wait_timeout_ms
        self.cluster = isinstance(client, RedisCluster)
        finished = ttl_seconds if finished_ttl is None else finished_ttl  # nobody moves in a finished game
        self.ttls = CommitTtls(ttl_seconds, finished, idem_ttl, keep_finished)
        self._commit = client.register_script(COMMIT_LUA)
        self._sender = AtMostOnce(client)
        self._recent: RecentCopies[Record] = RecentCopies(recent_size)

    def load(self, game_id: str) -> Record | None:
        version, meta, state, rounds = self.client.hmget(game_key(game_id), ["v", "meta", "state", "rounds"])
        if version is None or meta is None or state is None or rounds is None:
            return None
        record = self.decode(game_id, int(version), meta, state.decode(), rounds.decode())
        self._recent.remember(record)
        return record

    def recent(self, game_id: str) -> Record | None:
        return self._recent.get(game_id)

    def commit(
        self,
        record: Record,
        expected: Record | None,
        events: list[dict[str, Any]],
        idempotent: tuple[str, bytes] | None = None,
    ) -> bool:
        """One script call (:func:`services.api.store.redis_commit.commit_command`), with ``WAIT`` behind it."""
        keys, args = commit_command(record, expected, events, idempotent, self.ttls)
        commands = [("EVALSHA", self._commit.sha, len(keys), *keys, *args), *self._wait()]
        try:
            replies = self._sender.send_once(keys[0], *commands)
        except redis.exceptions.NoScriptError:  # a restarted or promoted Redis: load the script, then send it
            self.client.script_load(COMMIT_LUA)
            replies = self._sender.send_once(keys[0], *commands)
        ok = replies[0][0]
        if ok:
            self._recent.remember(record)
            self._check_replicated(replies, record.game_id)
        return bool(ok)

    def _wait(self) -> list[tuple[Any, ...]]:
        """The ``WAIT`` to pipeline after a write (none when no replica must confirm)."""
        return [("WAIT", self.wait_replicas, self.wait_timeout_ms)] if self.wait_replicas else []

    def _check_replicated(self, replies: list[Any], what: str) -> None:
        if self.wait_replicas and int(replies[-1]) < self.wait_replicas:
            raise NotReplicated(f"{what}: {replies[-1]} of {self.wait_replicas} replicas confirmed")

    def idempotent_entry(self, key: str, digest: bytes) -> bytes | None:
        """The stored entry if it is ``digest``'s; with ``wait_replicas``, only once replicas confirm it.

        ``WAIT`` counts the replicas that have this connection's last write, so
        the entry's TTL is refreshed first: a write after the one that stored
        the entry, which a replica can only confirm by having both.  Another
        key's entry (the seat's usual case: a new move) costs no ``WAIT``."""
        raw = self.client.get(key)
        if raw is None or not entry_answers(raw, digest):
            return None
        if self.wait_replicas:
            replies = self._sender.send_once(key, ("EXPIRE", key, self.idem_ttl), *self._wait())
            self._check_replicated(replies, key)
        return raw

    def events_after(self, game_id: str, after: int, limit: int) -> list[dict[str, Any]]:
        entries = self.client.xrange(events_key(game_id), min=f"{after + 1}-0", max="+", count=limit)
        return [orjson.loads(fields[b"e"]) for _, fields in entries]

    def subscription(self) -> Subscription:
        """The fan-out hub's subscription: one connection, or on a cluster one per master (its reader each)."""
        if self.cluster:
            return ClusterSubscription(self.client, self._sender.refresh_slots)
        return RedisSubscription(self.client)

    def ping(self) -> bool:
        """Reachable, and on a cluster every master answers and the cluster says ``cluster_state:ok``."""
        if not self.cluster:
            return bool(self.client.ping())
        if not self.client.ping(target_nodes=RedisCluster.PRIMARIES):
            return False
        return self.client.cluster_info().get("cluster_state") == "ok"


def make_store(config: dict[str, Any], decode: Decode[Record]) -> RedisStore[Record]:
    """The store for these settings (:func:`services.api.store.redis_client.make_client`), reading games with
    ``decode``."""
    store = RedisStore(
        decode,
        make_client(config),
        int(config["GAME_TTL_SECONDS"]),
        int(config["IDEMPOTENCY_TTL_SECONDS"]),
        wait_replicas=int(config["REDIS_WAIT_REPLICAS"]),
        wait_timeout_ms=int(config["REDIS_WAIT_TIMEOUT_MS"]),
        finished_ttl=int(config["FINISHED_GAME_TTL_SECONDS"]),
        keep_finished=bool(config["RECORDS_ENABLED"]),
    )
    store.tables_log_size = int(config["LOBBY_LOG_SIZE"])
    return store
