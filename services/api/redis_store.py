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
  (with per-seat private parts, filtered on read).
* ``game:{id}:idem:<seat>:<sha256(key)>`` — the stored response of an
  ``Idempotency-Key`` request.
* ``game:{id}:notify`` — a shard channel (not a key): each commit publishes (``SPUBLISH``)
  its new events there as a JSON array, for :mod:`services.api.fanout`.
* ``game:{id}:ai`` and the sorted set ``ai:pending`` — the AI turn in flight
  and every game's AI deadline (:mod:`services.api.dispatch`).

Every change goes through :meth:`RedisStore.commit`, a Lua compare-and-set on
``v`` that writes the record, its events and the idempotency entry at once
and refreshes the TTL, so concurrent writers can never lose or double a move.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

import hiredis
import orjson
import redis

from services.engine import GameState, from_json

from .fanout import Notice
from .store import GameRecord, RecentCopies, notify_channel

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
for i = 9, #ARGV, 2 do
  redis.call('XADD', KEYS[2], ARGV[i], 'e', ARGV[i + 1])
end
redis.call('EXPIRE', KEYS[2], ttl)  -- a no-op while the stream does not exist
local notice = {}  -- the new events, as one JSON array, to the API processes' fan-out hubs
for i = 10, #ARGV, 2 do notice[#notice + 1] = ARGV[i] end
if #notice > 0 then redis.call('SPUBLISH', KEYS[4], '[' .. table.concat(notice, ',') .. ']') end
if ARGV[6] ~= '' then redis.call('SET', KEYS[3], ARGV[6], 'EX', tonumber(ARGV[7])) end
return {1, ARGV[2]}
"""
PENDING_KEY = "ai:pending"  # sorted set: game id scored by its AI turn's deadline


def game_key(game_id: str) -> str:
    return f"game:{{{game_id}}}"


def events_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:events"


def pending_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:ai"


def stored_state(client: redis.Redis, game_id: str) -> GameState | None:
    """The engine state Redis holds for a game (tests and fault checks read it raw)."""
    state, rounds = client.hmget(game_key(game_id), ["state", "rounds"])
    return None if state is None or rounds is None else from_json(state, rounds)


class RedisSubscription:
    """:class:`services.api.fanout.Subscription` on one pub/sub connection with shard channels
    (``SSUBSCRIBE``, Redis 7): a channel lives on its game's slot, so a cluster routes it like the game."""

    _KINDS: ClassVar[dict[str, str]] = {"ssubscribe": "subscribed", "smessage": "message"}

    def __init__(self, client: redis.Redis) -> None:
        self._pubsub = client.pubsub()

    def subscribe(self, channel: str) -> None:
        self._pubsub.ssubscribe(channel)

    def unsubscribe(self, channel: str) -> None:
        self._pubsub.sunsubscribe(channel)

    def receive(self, timeout: float) -> Notice | None:
        message = self._pubsub.get_message(timeout=timeout)
        kind = self._KINDS.get(message["type"]) if message else None
        if message is None or kind is None:
            return None
        return kind, message["channel"].decode(), message["data"] if kind == "message" else None

    def close(self) -> None:
        self._pubsub.close()


class RedisStore:
    """:class:`services.api.store.GameStore` in Redis (see module docstring)."""

    def __init__(
        self,
        client: redis.Redis,
        ttl_seconds: int,
        idem_ttl: int,
        recent_size: int = 4096,
    ) -> None:
        self.client = client
        self.ttl_seconds = ttl_seconds
        self.idem_ttl = idem_ttl
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
        idempotent: tuple[str, str] | None = None,
    ) -> bool:
        """One script call; the finished rounds are sent only when they differ from ``expected``'s."""
        rounds = record.rounds_json
        if expected is not None and expected.rounds_json == rounds:
            rounds = ""  # unchanged: not sent, not rewritten
        args: list[Any] = [
            "" if expected is None else str(expected.version),
            str(record.version),
            record.meta_json(),
            record.state_json,
            self.ttl_seconds,
            idempotent[1] if idempotent else "",
            self.idem_ttl,
            rounds,
        ]
        for event in events:
            args += [f"{event['seq']}-0", orjson.dumps(event).decode()]
        idem_key = idempotent[0] if idempotent else game_key(record.game_id) + ":idem:none"
        keys = [game_key(record.game_id), events_key(record.game_id), idem_key, notify_channel(record.game_id)]
        try:
            ok, _ = self._send_once("EVALSHA", self._commit.sha, len(keys), *keys, *args)
        except redis.exceptions.NoScriptError:  # a restarted Redis: load the script, then send it
            self.client.script_load(_COMMIT_LUA)
            ok, _ = self._send_once("EVALSHA", self._commit.sha, len(keys), *keys, *args)
        if ok:
            self._remember(record)
        return bool(ok)

    def _send_once(self, *args: Any) -> Any:
        """One command on a pooled connection, sent at most once.

        A commit must not be re-sent blind: ``execute_command`` retries after a
        connection error (three times by default), and a script that ran before
        the connection dropped would then fail its compare-and-set and turn an
        applied move into a refused one.  Here a lost connection is a 503 and
        the client re-reads the game (or retries with its Idempotency-Key).
        It also skips redis-py's per-call wrappers, a measurable part of a move.
        """
        pool = self.client.connection_pool
        packed = hiredis.pack_command(args)  # what send_command does, minus a Python pass over the arguments
        connection = pool.get_connection()
        try:
            connection.send_packed_command([packed])
            return connection.read_response()
        except redis.exceptions.ResponseError:  # a whole reply was read: the connection is sound
            raise
        except BaseException:
            connection.disconnect()
            raise
        finally:
            pool.release(connection)

    def idempotent_response(self, key: str) -> dict[str, Any] | None:
        raw = self.client.get(key)
        return orjson.loads(raw) if raw is not None else None

    def events_after(self, game_id: str, after: int, limit: int) -> list[dict[str, Any]]:
        entries = self.client.xrange(events_key(game_id), min=f"{after + 1}-0", max="+", count=limit)
        return [orjson.loads(fields[b"e"]) for _, fields in entries]

    def subscription(self) -> RedisSubscription:
        return RedisSubscription(self.client)

    def ping(self) -> bool:
        return bool(self.client.ping())

    # ---- AI turns in flight ----------------------------------------------------

    def expect_turn(self, game_id: str, due: float) -> None:
        self.client.zadd(PENDING_KEY, {game_id: due})

    def record_turn(self, game_id: str, pending: dict[str, Any], due: float) -> None:
        pipe = self.client.pipeline(transaction=False)  # one round trip
        pipe.set(pending_key(game_id), json.dumps(pending), ex=self.ttl_seconds)
        pipe.zadd(PENDING_KEY, {game_id: due})
        pipe.execute()

    def pending_turn(self, game_id: str) -> dict[str, Any] | None:
        raw = self.client.get(pending_key(game_id))
        return json.loads(raw) if raw else None

    def due_turns(self, now: float, limit: int) -> list[str]:
        return [raw.decode() for raw in self.client.zrangebyscore(PENDING_KEY, "-inf", now, start=0, num=limit)]

    def claim_turn(self, game_id: str) -> bool:
        return bool(self.client.zrem(PENDING_KEY, game_id))  # the ZREM is the claim: one process wins


def make_store(config: dict[str, Any]) -> RedisStore:
    """A store whose pool makes a request wait (up to the socket timeout) for a free connection rather
    than fail: under gevent thousands of requests may reach Redis at once."""
    timeout = float(config["REDIS_SOCKET_TIMEOUT"])
    pool = redis.BlockingConnectionPool.from_url(
        config["REDIS_URL"],
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        health_check_interval=30,
        retry_on_timeout=False,
        max_connections=int(config["REDIS_MAX_CONNECTIONS"]),
        timeout=timeout,
    )
    client = redis.Redis(connection_pool=pool)
    return RedisStore(client, int(config["GAME_TTL_SECONDS"]), int(config["IDEMPOTENCY_TTL_SECONDS"]))
