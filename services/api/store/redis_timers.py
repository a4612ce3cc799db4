"""The timers in Redis (:class:`services.api.store.timers.Timers`): each game's deadline and the computer's
turn sent for it.

A game's deadline lives in the shard its id hashes to (:func:`services.api.store.redis_keys.pending_set`); the
sweeper reads every shard in one pipelined call, and the claim moves a due deadline to the claimer's lease in one
script (``lua/lease/claim.lua``, as the records outbox claims), so exactly one process wins it, and the release
takes it off only if it is still that lease (``lua/timers/release.lua``).

The heartbeat is two keys in one slot (:func:`services.api.store.redis_keys.heartbeat_keys`), the latest beat and
the outages kept, both changed by one script (``lua/timers/beat.lua``).  On a cluster a beat first pings every
master: while a shard fails over its games take no moves, so no beat is written and the gap is an outage for every
clock.
"""

from __future__ import annotations

import json
from functools import cached_property
from typing import Any

import redis
from redis.cluster import RedisCluster

from services.api.store.lua_scripts import lua
from services.api.store.redis_keys import PENDING_SETS, heartbeat_keys, pending_key, pending_set
from services.api.store.timers import MOST_OUTAGES, Span

BEAT_LUA = lua("timers/beat.lua")
CLAIM_LUA = lua("lease/claim.lua")
RELEASE_LUA = lua("timers/release.lua")


class RedisTimers:
    """The timers of :class:`services.api.store.redis_store.RedisStore`."""

    client: redis.Redis | RedisCluster
    ttl_seconds: int

    def expect_turn(self, game_id: str, due: float, earlier: bool = False) -> None:
        self.client.zadd(pending_set(game_id), {game_id: due}, lt=earlier)  # ZADD LT: only a sooner score

    def record_turn(self, game_id: str, pending: dict[str, Any], due: float) -> None:
        pipe = self.client.pipeline(transaction=False)  # one round trip (one per master on a cluster)
        pipe.set(pending_key(game_id), json.dumps(pending), ex=self.ttl_seconds)
        pipe.zadd(pending_set(game_id), {game_id: due})
        pipe.execute()

    def pending_turn(self, game_id: str) -> dict[str, Any] | None:
        raw = self.client.get(pending_key(game_id))
        return json.loads(raw) if raw else None

    def due_turns(self, now: float, limit: int, since: float | None = None) -> list[str]:
        """The most overdue turns of every shard (one pipelined read)."""
        pipe = self.client.pipeline(transaction=False)
        for key in PENDING_SETS:
            pipe.zrangebyscore(key, "-inf" if since is None else since, now, start=0, num=limit, withscores=True)
        due = sorted((score, raw) for shard in pipe.execute() for raw, score in shard)
        return [raw.decode() for _, raw in due[:limit]]

    def claim_turn(self, game_id: str, now: float, lease_until: float) -> bool:
        return bool(self._claim(keys=[pending_set(game_id)], args=[game_id, repr(now), repr(lease_until)]))

    def release_turn(self, game_id: str, lease_until: float) -> None:
        self._release(keys=[pending_set(game_id)], args=[game_id, repr(lease_until)])

    @cached_property
    def _claim(self) -> Any:
        return self.client.register_script(CLAIM_LUA)

    @cached_property
    def _release(self) -> Any:
        return self.client.register_script(RELEASE_LUA)

    @cached_property
    def _beat(self) -> Any:
        return self.client.register_script(BEAT_LUA)

    def beat(self, now_ms: int, outage_after_ms: int, keep_ms: int) -> tuple[bool, list[Span]]:
        if isinstance(self.client, RedisCluster):
            self.client.ping(target_nodes=RedisCluster.PRIMARIES)  # a master that does not answer: no beat
        reply = self._beat(keys=list(heartbeat_keys()), args=[now_ms, outage_after_ms, keep_ms, MOST_OUTAGES])
        return bool(reply[0]), [(int(reply[i]), int(reply[i + 1])) for i in range(1, len(reply) - 1, 2)]
