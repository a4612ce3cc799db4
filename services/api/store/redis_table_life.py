"""Table life in Redis (:class:`services.api.store.table_life.TableLifeStore`): presence, quick messages, rejoin codes.

Keys (each with the game's ``{id}`` hash tag, so each script runs on the game's slot, on one Redis or a Cluster):

* ``game:{id}:presence`` — sorted set: member the seat (``"0"`` … ``"3"``), score the end of its lease (ms).
  :data:`PRESENCE_LUA` drops lapsed leases, pushes one ahead (``ZADD GT``) and, when the connected seats differ
  from the leases it found, ``SPUBLISH``es a presence notice on ``game:{id}:notify``; the key expires a minute
  after its last lease (so the next renewal of an open stream, every few seconds, tells the lapse first).
* ``game:{id}:messages`` — list of the last :data:`~services.api.store.table_life.MESSAGES_KEPT` quick messages
  (JSON), and ``game:{id}:said:<seat>`` — sorted set of the seat's posts in the rate window (ms), expiring with it.
  :data:`MESSAGE_LUA` checks the seat's limits, keeps and publishes the message, atomically.
* ``game:{id}:rejoin`` — hash: seat → SHA-256 (hex) of its live rejoin code, then the token hash it is bound to.
  :data:`TAKE_CODE_LUA` finds and drops the code of a digest in one step, so a code is redeemed once.

The messages list and the rejoin hash take the game hash's time left (``PTTL``) when written, or the game TTL
when the game has none (a finished game waiting for its record): they expire with the game.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import redis
from redis.cluster import RedisCluster

from services.api.store.lua_scripts import lua
from services.api.store.protocol import notify_channel
from services.api.store.redis_keys import game_key
from services.api.store.table_life import MESSAGES_KEPT, SEATS, MessageLimits

LAPSED_KEPT_MS = 60_000  # a presence key outlives its last lease by this: a renewal in between tells the lapse

PRESENCE_LUA = lua("table_life/presence.lua")

MESSAGE_LUA = lua("table_life/with_the_game.lua", "table_life/message.lua")

SET_CODE_LUA = lua("table_life/with_the_game.lua", "table_life/set_code.lua")

TAKE_CODE_LUA = lua("table_life/take_code.lua")


def presence_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:presence"


def messages_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:messages"


def said_key(game_id: str, seat: int) -> str:
    return f"game:{{{game_id}}}:said:{seat}"


def rejoin_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:rejoin"


def _flags(text: bytes | str) -> list[bool]:
    raw = text.decode() if isinstance(text, bytes) else text
    return [flag == "true" for flag in raw.split(",")]


class RedisTableLife:
    """The table-life operations of :class:`services.api.store.redis_store.RedisStore`."""

    client: redis.Redis | RedisCluster
    ttl_seconds: int

    @cached_property
    def _table_scripts(self) -> dict[str, Any]:
        return {
            name: self.client.register_script(text)
            for name, text in (
                ("presence", PRESENCE_LUA),
                ("message", MESSAGE_LUA),
                ("set_code", SET_CODE_LUA),
                ("take_code", TAKE_CODE_LUA),
            )
        }

    def hold_presence(self, game_id: str, seat: int | None, now_ms: int, until_ms: int) -> list[bool]:
        keys = [presence_key(game_id), notify_channel(game_id)]
        args = [now_ms, "" if seat is None else str(seat), until_ms, LAPSED_KEPT_MS]
        return _flags(self._table_scripts["presence"](keys=keys, args=args))

    def table_extras(self, game_id: str, now_ms: int) -> tuple[list[bool], list[bytes]]:
        pipe = self.client.pipeline(transaction=False)  # both keys on the game's slot: one round trip
        pipe.zrangebyscore(presence_key(game_id), f"({now_ms}", "+inf")
        pipe.lrange(messages_key(game_id), 0, -1)
        seats, messages = pipe.execute()
        connected = [False] * SEATS
        for member in seats:
            connected[int(member)] = True
        return connected, list(messages)

    def post_message(self, game_id: str, seat: int, entry: bytes, now_ms: int, limits: MessageLimits) -> int:
        keys = [messages_key(game_id), said_key(game_id, seat), notify_channel(game_id), game_key(game_id)]
        args = [self.ttl_seconds, now_ms, entry, MESSAGES_KEPT, limits.gap_ms, limits.most, limits.window_ms]
        return int(self._table_scripts["message"](keys=keys, args=args))

    def set_rejoin_code(self, game_id: str, seat: int, stored: str) -> None:
        keys = [rejoin_key(game_id), game_key(game_id)]
        self._table_scripts["set_code"](keys=keys, args=[self.ttl_seconds, seat, stored])

    def drop_rejoin_code(self, game_id: str, seat: int) -> None:
        self.client.hdel(rejoin_key(game_id), str(seat))

    def take_rejoin_code(self, game_id: str, digest: str) -> tuple[int, str] | None:
        found = self._table_scripts["take_code"](keys=[rejoin_key(game_id)], args=[digest])
        return None if not found else (int(found[0]), found[1].decode())
