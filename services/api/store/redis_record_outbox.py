"""The records outbox in Redis (:class:`services.api.store.record_outbox.RecordOutbox`).

The outbox is sharded like the timers: 16 sorted sets ``records:outbox:{0}`` … ``{15}``, each its own
slot, a game in the shard its id hashes to, scored by when its record is due.  A claim is one script on
the shard (:data:`CLAIM_LUA`: still due? then due again a lease later); giving a finished game its expiry
back is one script on the game's slot (:data:`WRITTEN_LUA`), so a game that changed since the record was
built keeps its own expiry; so is ending an abandoned game (:data:`END_LUA`: every key of the game deleted at
once, only at the version recorded), followed by ``WAIT`` when replicas must confirm changes, so a failover
cannot bring back a game whose record is shown.
"""

from __future__ import annotations

import zlib
from functools import cached_property
from typing import Any

import redis
from redis.cluster import RedisCluster

from services.api.store.lua_scripts import lua
from services.api.store.protocol import idempotency_key
from services.api.store.redis_keys import PENDING_SHARDS, events_key, game_key, paused_key, pending_key, watched_key

OUTBOX_SETS = tuple(f"records:outbox:{{{shard}}}" for shard in range(PENDING_SHARDS))
SEATS = 4

CLAIM_LUA = lua("lease/claim.lua")

WRITTEN_LUA = lua("record_outbox/written.lua")

KEEP_LUA = lua("record_outbox/keep.lua")


END_LUA = lua("record_outbox/end.lua")


def outbox_set(game_id: str) -> str:
    """The outbox shard that holds a game's entry (stable: a hash of the id)."""
    return OUTBOX_SETS[zlib.crc32(game_id.encode()) % PENDING_SHARDS]


def game_keys(game_id: str) -> list[str]:
    """Every key of a game that expires with it (the record and the log first)."""
    return [game_key(game_id), events_key(game_id), *(idempotency_key(game_id, seat) for seat in range(SEATS))]


def every_key(game_id: str) -> list[str]:
    """Every key a game may have (all in its slot): what :data:`END_LUA` deletes."""
    return [*game_keys(game_id), pending_key(game_id), watched_key(game_id), paused_key(game_id)]


class RedisRecordOutbox:
    """The outbox operations of :class:`services.api.store.protocol.GameStore`, for
    :class:`services.api.store.redis_store.RedisStore`."""

    client: redis.Redis | RedisCluster
    ttls: Any  # services.api.store.redis_commit.CommitTtls
    _sender: Any  # services.api.store.redis_send.AtMostOnce
    _wait: Any  # RedisStore._wait and _check_replicated: WAIT after a write, when replicas must confirm it
    _check_replicated: Any

    @cached_property
    def _claim_script(self) -> Any:
        return self.client.register_script(CLAIM_LUA)

    @cached_property
    def _written_script(self) -> Any:
        return self.client.register_script(WRITTEN_LUA)

    @cached_property
    def _keep_script(self) -> Any:
        return self.client.register_script(KEEP_LUA)

    @cached_property
    def _end_script(self) -> Any:
        return self.client.register_script(END_LUA)

    def schedule_record(self, game_id: str, due: float) -> None:
        self.client.zadd(outbox_set(game_id), {game_id: due})

    def claim_records(self, now: float, lease: float, limit: int) -> list[str]:
        """The most overdue entries of every shard (one pipelined read), then a claim script for each."""
        pipe = self.client.pipeline(transaction=False)
        for key in OUTBOX_SETS:
            pipe.zrangebyscore(key, "-inf", now, start=0, num=limit, withscores=True)
        due = sorted((score, raw.decode()) for shard in pipe.execute() for raw, score in shard)[:limit]
        return [
            game_id
            for _, game_id in due
            if self._claim_script(keys=[outbox_set(game_id)], args=[game_id, now, now + lease])
        ]

    def record_done(self, game_id: str) -> None:
        self.client.zrem(outbox_set(game_id), game_id)

    def record_written(self, game_id: str, version: int) -> bool:
        if not self._written_script(keys=game_keys(game_id), args=[version, self.ttls.finished]):
            return False
        self.record_done(game_id)
        return True

    def game_ttl(self, game_id: str) -> float | None:
        left = self.client.pttl(game_key(game_id))
        return None if left < 0 else left / 1000

    def keep_game(self, game_id: str, seconds: float) -> None:
        self._keep_script(keys=game_keys(game_id)[:2], args=[max(1, int(seconds))])

    def end_game(self, game_id: str, version: int | None) -> bool:
        """:data:`END_LUA` on the game's slot, with ``WAIT`` behind it (the commit's way of sending; the script
        may run twice: a second run finds the game gone and deletes nothing more)."""
        keys = every_key(game_id)
        script = self._end_script
        commands = [("EVALSHA", script.sha, len(keys), *keys, "" if version is None else str(version)), *self._wait()]
        try:
            replies = self._sender.send_once(keys[0], *commands)
        except redis.exceptions.NoScriptError:  # a restarted or promoted Redis: load the script, then send it
            self.client.script_load(END_LUA)
            replies = self._sender.send_once(keys[0], *commands)
        if not replies[0]:
            return False
        self._check_replicated(replies, game_id)
        return True
