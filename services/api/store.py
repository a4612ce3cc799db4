"""Game storage in Redis: one hash per game, one stream of events per game.

Layout (every key of a game shares the ``{game_id}`` hash tag, so a game lives
in one Redis Cluster slot and one Lua script may touch all of its keys):

* ``game:{id}`` — hash: ``v`` (version, int), ``meta`` (compact JSON: seats
  with token hashes, options, started flag, last event seq), ``state`` and
  ``rounds`` (the engine's :func:`services.engine.to_json_parts`: the game
  without its finished rounds, and those rounds).  ``rounds`` is written only
  when it changes, once a round, so a move writes about 1 KB however long the
  game.  A ``state`` holding finished rounds itself (the older one-text
  layout, possibly written during a rolling upgrade) is read whole, and
  ``rounds`` beside it ignored (see :func:`_stored_parts`).
* ``game:{id}:events`` — stream; entry id ``<seq>-0``, field ``e`` = event JSON
  (with per-seat private parts, filtered on read).
* ``game:{id}:idem:<seat>:<sha256(key)>`` — the stored response of an
  ``Idempotency-Key`` request.

Every change goes through :meth:`GameStore.commit`, a Lua compare-and-set on
``v`` that writes the record, its events and the idempotency entry at once
and refreshes the TTL, so concurrent writers can never lose or double a move.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property
from threading import Lock
from typing import Any

import hiredis
import orjson
import redis

from services.engine import GameState, from_json, to_json_parts

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
if ARGV[6] ~= '' then redis.call('SET', KEYS[3], ARGV[6], 'EX', tonumber(ARGV[7])) end
return {1, ARGV[2]}
"""


_PARSED: OrderedDict[tuple[str, str | None], GameState] = OrderedDict()
_PARSED_LOCK = Lock()
PARSED_CACHE_SIZE = 1024


def parse_state(text: str, rounds: str | None) -> GameState:
    """``from_json`` with a small per-process cache keyed by the stored texts
    themselves (content-addressed, so it can never return another state)."""
    key = (text, rounds)
    with _PARSED_LOCK:
        state = _PARSED.get(key)
        if state is not None:
            _PARSED.move_to_end(key)
            return state
    state = from_json(text, rounds)
    with _PARSED_LOCK:
        _PARSED[key] = state
        while len(_PARSED) > PARSED_CACHE_SIZE:
            _PARSED.popitem(last=False)
    return state


def game_key(game_id: str) -> str:
    return f"game:{{{game_id}}}"


def events_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:events"


def idempotency_key(game_id: str, seat: int, key: str) -> str:
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
    return f"game:{{{game_id}}}:idem:{seat}:{digest}"


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat as stored; immutable, so versions of a record can share them."""

    type: str  # human | open | ai
    level: str | None = None  # ai level
    token_hash: str | None = None
    stand_in: bool = False  # an AI playing a left seat until someone claims it

    @property
    def claimable(self) -> bool:
        return self.type == "open" or self.stand_in

    def to_json(self) -> list[Any]:
        base = [self.type, self.level, self.token_hash]
        return [*base, True] if self.stand_in else base


@dataclass
class GameRecord:
    """One game as stored: version, seats, options and the engine state
    (as its two stored texts; ``rounds`` None for the older one-text layout)."""

    game_id: str
    version: int
    seats: list[Seat]
    state_json: str
    options: dict[str, Any] = field(default_factory=dict)
    started: bool = False  # all seats were taken at least once and round 1 began
    seq: int = 0  # seq of the last event
    rounds_json: str | None = None

    @cached_property
    def state(self) -> GameState:
        return parse_state(self.state_json, self.rounds_json)

    def with_state(self, state: GameState) -> GameRecord:
        head, rounds = to_json_parts(state)
        record = GameRecord(self.game_id, self.version, self.seats, head, self.options, self.started, self.seq, rounds)
        record.__dict__["state"] = state
        return record

    @property
    def waiting(self) -> bool:
        return "open" in [s.type for s in self.seats]

    def meta_json(self) -> str:
        meta = {
            "seats": [s.to_json() for s in self.seats],
            "options": self.options,
            "started": self.started,
            "seq": self.seq,
        }
        return orjson.dumps(meta).decode()


SPLIT_MARK = '"history":[]'  # what a state stored apart from its rounds always holds


def _stored_parts(state: bytes, rounds: bytes | None) -> tuple[str, str | None]:
    """The stored texts as ``from_json(text, rounds)`` takes them.  A ``state``
    holding finished rounds itself was written whole, by a process of the
    older layout (during a rolling upgrade, after a newer one wrote ``rounds``):
    it is the truth, and ``rounds`` is stale."""
    text = state.decode()
    if rounds is None or SPLIT_MARK not in text:
        return text, None
    return text, rounds.decode()


def _record(game_id: str, version: bytes, meta_json: bytes, state_json: bytes, rounds: bytes | None) -> GameRecord:
    meta = orjson.loads(meta_json)
    state_text, rounds_text = _stored_parts(state_json, rounds)
    return GameRecord(
        game_id=game_id,
        version=int(version),
        seats=[Seat(*s) for s in meta["seats"]],
        state_json=state_text,
        options=meta["options"],
        started=meta["started"],
        seq=meta["seq"],
        rounds_json=rounds_text,
    )


def stored_state(client: redis.Redis, game_id: str) -> GameState | None:
    """The engine state Redis holds for a game (tests and fault checks read it raw)."""
    state, rounds = client.hmget(game_key(game_id), ["state", "rounds"])
    return None if state is None else from_json(*_stored_parts(state, rounds))


class GameStore:
    """The small storage interface the API needs (see module docstring)."""

    def __init__(
        self,
        client: redis.Redis,
        blocking_client: redis.Redis,
        ttl_seconds: int,
        idem_ttl: int,
        recent_size: int = 4096,
    ) -> None:
        self.client = client
        self.blocking_client = blocking_client  # longer socket timeout, for XREAD BLOCK
        self.ttl_seconds = ttl_seconds
        self.idem_ttl = idem_ttl
        self._commit = client.register_script(_COMMIT_LUA)
        self._recent: OrderedDict[str, GameRecord] = OrderedDict()
        self._recent_size = recent_size
        self._lock = Lock()

    def load(self, game_id: str) -> GameRecord | None:
        version, meta, state, rounds = self.client.hmget(game_key(game_id), ["v", "meta", "state", "rounds"])
        if version is None or meta is None or state is None:
            return None
        record = _record(game_id, version, meta, state, rounds)
        self._remember(record)
        return record

    def recent(self, game_id: str) -> GameRecord | None:
        """The last version of the game this process read or wrote, if any.

        Possibly stale: only for optimistic writes, whose compare-and-set on
        the version catches staleness (a failed commit means: load and retry).
        Never a basis for a refusal or a read answer."""
        with self._lock:
            return self._recent.get(game_id)

    def _remember(self, record: GameRecord) -> None:
        if self._recent_size <= 0:
            return
        with self._lock:
            known = self._recent.get(record.game_id)
            if known is None or known.version <= record.version:
                self._recent[record.game_id] = record
                self._recent.move_to_end(record.game_id)
            while len(self._recent) > self._recent_size:
                self._recent.popitem(last=False)

    def commit(
        self,
        record: GameRecord,
        expected: GameRecord | None,
        events: list[dict[str, Any]],
        idempotent: tuple[str, str] | None = None,
    ) -> bool:
        """Write ``record`` (whose version is the new one) and append ``events``
        if the stored version is still ``expected``'s (None: the game must not
        exist yet). Returns False, writing nothing, otherwise.

        The finished rounds are sent only when they differ from ``expected``'s.
        ``idempotent`` is ``(redis key, stored response JSON)`` to remember.
        """
        if record.rounds_json is None:  # read in the older one-text layout: stored in two parts from now on
            record = record.with_state(record.state)
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
        keys = [game_key(record.game_id), events_key(record.game_id), idem_key]
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

    def wait_events(self, game_id: str, after: int, limit: int, wait_seconds: float) -> list[dict[str, Any]]:
        """Events after ``after``, blocking up to ``wait_seconds`` for the first one."""
        events = self.events_after(game_id, after, limit)
        if events or wait_seconds <= 0:
            return events
        reply = self.blocking_client.xread(
            {events_key(game_id): f"{after}-0"}, count=limit, block=max(1, int(wait_seconds * 1000))
        )
        out = []
        for _, entries in reply or []:
            out.extend(orjson.loads(fields[b"e"]) for _, fields in entries)
        return out

    def ping(self) -> bool:
        return bool(self.client.ping())


def make_store(config: dict[str, Any]) -> GameStore:
    timeout = float(config["REDIS_SOCKET_TIMEOUT"])
    common = {
        "socket_connect_timeout": timeout,
        "health_check_interval": 30,
        "retry_on_timeout": False,
        # one connection per busy thread: long polls each hold one for up to EVENTS_MAX_WAIT
        "max_connections": int(config["REDIS_MAX_CONNECTIONS"]),
    }
    client = redis.Redis.from_url(config["REDIS_URL"], socket_timeout=timeout, **common)
    blocking = redis.Redis.from_url(
        config["REDIS_URL"], socket_timeout=float(config["EVENTS_MAX_WAIT"]) + timeout + 1, **common
    )
    return GameStore(client, blocking, int(config["GAME_TTL_SECONDS"]), int(config["IDEMPOTENCY_TTL_SECONDS"]))
