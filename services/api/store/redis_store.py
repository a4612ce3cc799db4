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
  on a cluster the ledger is spread over the masters like the games are.

Every change goes through :meth:`RedisStore.commit`, a Lua compare-and-set on
``v`` that writes the record, its events and the idempotency entry at once
and refreshes the TTL (``FINISHED_GAME_TTL_SECONDS`` once the game is over),
so concurrent writers can never lose or double a move.
With ``wait_replicas`` > 0 the commit is followed, on the same connection and
in the same round trip, by ``WAIT``: a commit fewer replicas confirm raises
:class:`~services.api.store.protocol.NotReplicated` instead of being acknowledged.

The client is a ``redis.Redis`` or, with ``REDIS_CLUSTER_NODES``, a
``redis.cluster.RedisCluster`` (:func:`make_store`); the commit's own send
(:meth:`RedisStore._send_once`) routes to the master of the game's slot itself,
and the fan-out subscription is one connection per master
(:mod:`services.api.store.cluster_pubsub`).
"""

from __future__ import annotations

import json
import logging
import zlib
from typing import Any

import hiredis
import orjson
import redis
from redis.cluster import ClusterNode, RedisCluster
from redis.exceptions import MovedError, ResponseError

from services.api.config import cluster_nodes
from services.api.live.channel_reader import Notice, Subscription
from services.api.store.cluster_pubsub import ClusterSubscription
from services.api.store.protocol import (
    GameRecord,
    NotReplicated,
    RecentCopies,
    entry_answers,
    idempotency_key,
    notify_channel,
)
from services.engine import GameState, from_json

log = logging.getLogger("services.api")

_COMMIT_LUA = """
local cur = redis.call('HGET', KEYS[1], 'v')
if ARGV[1] == '' then
  if cur then return {0, cur} end
elseif cur ~= ARGV[1] then
  if cur then return {0, cur} end
  return {0, ''}
end
local ttl = tonumber(ARGV[5])
if ARGV[8] ~= '' then
  redis.call('HSET', KEYS[1], 'v', ARGV[2], 'meta', ARGV[3], 'state', ARGV[4], 'rounds', ARGV[8])
else
  redis.call('HSET', KEYS[1], 'v', ARGV[2], 'meta', ARGV[3], 'state', ARGV[4])
end
redis.call('EXPIRE', KEYS[1], ttl)
for i = 10, #ARGV, 2 do
  redis.call('XADD', KEYS[2], ARGV[i], 'e', ARGV[i + 1])
end
if ARGV[9] ~= '' then redis.call('XTRIM', KEYS[2], 'MINID', ARGV[9]) end  -- a new round: rounds no longer kept
redis.call('EXPIRE', KEYS[2], ttl)  -- a no-op while the stream does not exist
local notice = {}  -- the new events, as one JSON array, to the API processes' fan-out hubs
for i = 11, #ARGV, 2 do notice[#notice + 1] = ARGV[i] end
if #notice > 0 then redis.call('SPUBLISH', KEYS[4], '[' .. table.concat(notice, ',') .. ']') end
if ARGV[6] ~= '' then redis.call('SET', KEYS[3], ARGV[6], 'EX', tonumber(ARGV[7])) end
for i = 5, #KEYS do redis.call('EXPIRE', KEYS[i], ttl, 'LT') end  -- game over: no seat's entry outlives it
return {1, ARGV[2]}
"""
PENDING_SHARDS = 16  # sorted sets of game ids scored by their AI turn's deadline; each its own slot
PENDING_SETS = tuple(f"ai:pending:{{{shard}}}" for shard in range(PENDING_SHARDS))


def game_key(game_id: str) -> str:
    return f"game:{{{game_id}}}"


def events_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:events"


def pending_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:ai"


def pending_set(game_id: str) -> str:
    """The ledger shard that holds a game's AI deadline (stable: a hash of the id)."""
    return PENDING_SETS[zlib.crc32(game_id.encode()) % PENDING_SHARDS]


def stored_state(client: redis.Redis, game_id: str) -> GameState | None:
    """The engine state Redis holds for a game (tests and fault checks read it raw)."""
    state, rounds = client.hmget(game_key(game_id), ["state", "rounds"])
    return None if state is None or rounds is None else from_json(state, rounds)


class RedisSubscription:
    """:class:`services.api.live.channel_reader.Subscription` on one pub/sub connection.

    Shard channels (``SSUBSCRIBE``, Redis 7) by default: a game's channel lives on its slot, so a
    cluster routes it like the game.  ``sharded=False``: plain channels (``SUBSCRIBE``), where the
    publisher uses ``PUBLISH`` (Celery's result backend)."""

    def __init__(self, client: redis.Redis, sharded: bool = True) -> None:
        self._pubsub = client.pubsub()
        prefix = "s" if sharded else ""
        self._subscribe = getattr(self._pubsub, f"{prefix}subscribe")
        self._unsubscribe = getattr(self._pubsub, f"{prefix}unsubscribe")
        self._kinds = {f"{prefix}subscribe": "subscribed", f"{prefix}message": "message"}

    def subscribe(self, channel: str) -> None:
        self._subscribe(channel)

    def unsubscribe(self, channel: str) -> None:
        self._unsubscribe(channel)

    def receive(self, timeout: float) -> Notice | None:
        message = self._pubsub.get_message(timeout=timeout)
        kind = self._kinds.get(message["type"]) if message else None
        if message is None or kind is None:
            return None
        return kind, message["channel"].decode(), message["data"] if kind == "message" else None

    def close(self) -> None:
        self._pubsub.close()


class RedisStore:
    """:class:`services.api.store.protocol.GameStore` in Redis (see module docstring)."""

    def __init__(
        self,
        client: redis.Redis | RedisCluster,
        ttl_seconds: int,
        idem_ttl: int,
        recent_size: int = 4096,
        wait_replicas: int = 0,
        wait_timeout_ms: int = 500,
        finished_ttl: int | None = None,
    ) -> None:
        self.client = client  # a redis.Redis, or a RedisCluster
        self.ttl_seconds = ttl_seconds
        self.idem_ttl = idem_ttl
        self.wait_replicas = wait_replicas
        self.wait_timeout_ms = wait_timeout_ms
        self.cluster = isinstance(client, RedisCluster)
        self.finished_ttl = ttl_seconds if finished_ttl is None else finished_ttl  # nobody moves in a finished game
        self._commit = client.register_script(_COMMIT_LUA)
        self._recent = RecentCopies(recent_size)

    def load(self, game_id: str) -> GameRecord | None:
        version, meta, state, rounds = self.client.hmget(game_key(game_id), ["v", "meta", "state", "rounds"])
        if version is None or meta is None or state is None or rounds is None:
            return None
        record = GameRecord.from_stored(game_id, int(version), meta, state.decode(), rounds.decode())
        self._remember(record)
        return record

    def recent(self, game_id: str) -> GameRecord | None:
        return self._recent.get(game_id)

    def _remember(self, record: GameRecord) -> None:
        self._recent.remember(record)

    def commit(
        self,
        record: GameRecord,
        expected: GameRecord | None,
        events: list[dict[str, Any]],
        idempotent: tuple[str, bytes] | None = None,
    ) -> bool:
        """One script call; the finished rounds are sent only when they differ from ``expected``'s,
        the log's new lower bound only when a round start moved it."""
        rounds = record.rounds_json
        if expected is not None and expected.rounds_json == rounds:
            rounds = ""  # unchanged: not sent, not rewritten
        trim = expected is not None and record.first_seq > expected.first_seq
        over = record.state.phase == "game_over"
        ttl = self.finished_ttl if over else self.ttl_seconds
        args: list[Any] = [
            "" if expected is None else str(expected.version),
            str(record.version),
            record.meta_json(),
            record.state_json,
            ttl,
            idempotent[1] if idempotent else "",
            min(self.idem_ttl, ttl),
            rounds,
            f"{record.first_seq}-0" if trim else "",
        ]
        for event in events:
            args += [f"{event['seq']}-0", orjson.dumps(event).decode()]
        idem_key = idempotent[0] if idempotent else game_key(record.game_id) + ":idem:none"
        keys = [game_key(record.game_id), events_key(record.game_id), idem_key, notify_channel(record.game_id)]
        if over:  # every seat's entry expires with the finished game (EXPIRE … LT: never lengthened)
            keys += [idempotency_key(record.game_id, seat) for seat in range(len(record.seats))]
        commands = [("EVALSHA", self._commit.sha, len(keys), *keys, *args), *self._wait()]
        try:
            replies = self._send_once(keys[0], *commands)
        except redis.exceptions.NoScriptError:  # a restarted or promoted Redis: load the script, then send it
            self.client.script_load(_COMMIT_LUA)
            replies = self._send_once(keys[0], *commands)
        ok = replies[0][0]
        if ok:
            self._remember(record)
            self._check_replicated(replies, record.game_id)
        return bool(ok)

    def _wait(self) -> list[tuple[Any, ...]]:
        """The ``WAIT`` to pipeline after a write (none when no replica must confirm)."""
        return [("WAIT", self.wait_replicas, self.wait_timeout_ms)] if self.wait_replicas else []

    def _check_replicated(self, replies: list[Any], what: str) -> None:
        if self.wait_replicas and int(replies[-1]) < self.wait_replicas:
            raise NotReplicated(f"{what}: {replies[-1]} of {self.wait_replicas} replicas confirmed")

    def _send_once(self, key: str, *commands: tuple[Any, ...]) -> list[Any]:
        """``commands`` pipelined on one pooled connection to the master of
        ``key``'s slot, sent at most once; their replies, in order.

        A commit must not be re-sent blind: ``execute_command`` retries after a
        connection error (three times by default), and a script that ran before
        the connection dropped would then fail its compare-and-set and turn an
        applied move into a refused one.  Here a lost connection is a 503 and
        the client re-reads the game (or retries with its Idempotency-Key).
        On a cluster a lost connection also refreshes the slot map, so the next
        request finds the promoted replica, and a ``MOVED`` reply (nothing ran)
        is followed, once, to the slot's new master.  It also skips redis-py's
        per-call wrappers, a measurable part of a move.
        """
        packed = [hiredis.pack_command(command) for command in commands]  # minus a Python pass over the arguments
        for _ in range(2):
            replies = self._send_packed(key, packed)
            moved = next((reply for reply in replies if isinstance(reply, MovedError)), None)
            if moved is None or not self.cluster:
                break
            self.client.nodes_manager.move_slot(moved)
        error = next((reply for reply in replies if isinstance(reply, ResponseError)), None)
        if error is not None:
            raise error
        return replies

    def _send_packed(self, key: str, packed: list[bytes]) -> list[Any]:
        """Send, then read every reply (an error reply is returned, not raised, so none is left unread)."""
        node = self.client.get_node_from_key(key) if self.cluster else None
        pool = (self.client.get_redis_connection(node) if node else self.client).connection_pool
        connection = None
        try:
            connection = pool.get_connection()
            connection.send_packed_command(packed)
            replies: list[Any] = []
            for _ in packed:
                try:
                    replies.append(connection.read_response())
                except ResponseError as error:  # a whole reply was read: the connection is sound
                    replies.append(error)
            return replies
        except BaseException as error:
            if connection is not None:
                connection.disconnect()
            if node is not None and isinstance(error, redis.exceptions.ConnectionError | redis.exceptions.TimeoutError):
                self._refresh_slots(node)
            raise
        finally:
            if connection is not None:
                pool.release(connection)

    def _refresh_slots(self, failed: ClusterNode) -> None:
        """Re-read the cluster's slot map (asking the failed node last), as redis-py does after a lost connection."""
        try:
            self.client.nodes_manager.initialize(last_failed_node_name=failed.name)
        except redis.RedisError as error:  # the next request tries again
            log.warning("cluster slot map not refreshed", extra={"error": error.__class__.__name__})

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
            replies = self._send_once(key, ("EXPIRE", key, self.idem_ttl), *self._wait())
            self._check_replicated(replies, key)
        return raw

    def events_after(self, game_id: str, after: int, limit: int) -> list[dict[str, Any]]:
        entries = self.client.xrange(events_key(game_id), min=f"{after + 1}-0", max="+", count=limit)
        return [orjson.loads(fields[b"e"]) for _, fields in entries]

    def subscription(self) -> Subscription:
        """The fan-out hub's subscription: one connection, or on a cluster one per master (its reader each)."""
        if self.cluster:
            return ClusterSubscription(self.client, self._refresh_slots)
        return RedisSubscription(self.client)

    def ping(self) -> bool:
        """Reachable, and on a cluster every master answers and the cluster says ``cluster_state:ok``."""
        if not self.cluster:
            return bool(self.client.ping())
        if not self.client.ping(target_nodes=RedisCluster.PRIMARIES):
            return False
        return self.client.cluster_info().get("cluster_state") == "ok"

    # ---- AI turns in flight ----------------------------------------------------

    def expect_turn(self, game_id: str, due: float) -> None:
        self.client.zadd(pending_set(game_id), {game_id: due})

    def record_turn(self, game_id: str, pending: dict[str, Any], due: float) -> None:
        pipe = self.client.pipeline(transaction=False)  # one round trip (one per master on a cluster)
        pipe.set(pending_key(game_id), json.dumps(pending), ex=self.ttl_seconds)
        pipe.zadd(pending_set(game_id), {game_id: due})
        pipe.execute()

    def pending_turn(self, game_id: str) -> dict[str, Any] | None:
        raw = self.client.get(pending_key(game_id))
        return json.loads(raw) if raw else None

    def due_turns(self, now: float, limit: int) -> list[str]:
        """The most overdue turns of every shard (one pipelined read)."""
        pipe = self.client.pipeline(transaction=False)
        for key in PENDING_SETS:
            pipe.zrangebyscore(key, "-inf", now, start=0, num=limit, withscores=True)
        due = sorted((score, raw) for shard in pipe.execute() for raw, score in shard)
        return [raw.decode() for _, raw in due[:limit]]

    def claim_turn(self, game_id: str) -> bool:
        return bool(self.client.zrem(pending_set(game_id), game_id))  # the ZREM is the claim: one process wins


def make_store(config: dict[str, Any]) -> RedisStore:
    """The store for these settings: one Redis at ``REDIS_URL``, or the cluster of ``REDIS_CLUSTER_NODES``.

    Every pool (one Redis's, or each cluster node's) makes a request wait up to the socket timeout for
    a free connection rather than fail at once: under gevent thousands of requests may reach Redis
    together."""
    timeout = float(config["REDIS_SOCKET_TIMEOUT"])
    common = {
        "socket_timeout": timeout,
        "socket_connect_timeout": timeout,
        "health_check_interval": 30,
        "retry_on_timeout": False,
        "max_connections": int(config["REDIS_MAX_CONNECTIONS"]),  # per process (per node on a cluster)
        "timeout": timeout,  # the blocking pool's wait for a free connection
    }
    nodes = cluster_nodes(config)
    if nodes:
        (host, port), others = nodes[0], nodes[1:]
        password = config["REDIS_CLUSTER_PASSWORD"] or None
        # redis-py builds each node's pool from connection_pool_class only for a client made from a
        # URL (otherwise a plain pool, which refuses a request over max_connections at once).
        # require_full_coverage=False: a shard between losing its master and promoting the replica
        # must not stop the client from serving every other shard's games.
        client: redis.Redis | RedisCluster = RedisCluster(
            url=f"redis://{f'[{host}]' if ':' in host else host}:{port}",
            startup_nodes=[ClusterNode(h, p) for h, p in others],
            connection_pool_class=redis.BlockingConnectionPool,
            require_full_coverage=False,
            password=password,
            **common,
        )
    else:
        client = redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(config["REDIS_URL"], **common))
    return RedisStore(
        client,
        int(config["GAME_TTL_SECONDS"]),
        int(config["IDEMPOTENCY_TTL_SECONDS"]),
        wait_replicas=int(config["REDIS_WAIT_REPLICAS"]),
        wait_timeout_ms=int(config["REDIS_WAIT_TIMEOUT_MS"]),
        finished_ttl=int(config["FINISHED_GAME_TTL_SECONDS"]),
    )
