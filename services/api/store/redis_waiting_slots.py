"""Waiting requests' slots in Redis (:class:`services.api.store.waiting_slots.WaitingSlots`).

Per holder one sorted set in the holder's own slot (``waiting:{<holder>}``; :mod:`services.api.store.redis_keys`),
each slot id scored by its lease's end (Unix seconds).  :data:`SLOTS_LUA` drops lapsed leases
(``ZREMRANGEBYSCORE``), checks every given holder's cap and adds the slot to each, atomically; renewing is
the same script with no cap.  The key expires with its last lease, so a holder that stops waiting leaves
nothing behind.  On one Redis a take (or a renewal) is one script call over all the request's holders and a
release one pipelined round trip of ``ZREM``; on a Cluster each holder's set is its own slot, so a take is one
call per holder, the earlier ones given back when a later holder refuses.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

import redis
from redis.cluster import RedisCluster

from services.api.store.lua_scripts import lua
from services.api.store.redis_keys import waiting_key
from services.api.store.waiting_slots import Capped

SLOTS_LUA = lua("waiting_slots/slots.lua")


class RedisWaitingSlots:
    """The waiting-slot operations of :class:`services.api.store.redis_store.RedisStore`."""

    client: redis.Redis | RedisCluster
    cluster: bool

    @cached_property
    def _slots_script(self) -> Any:
        return self.client.register_script(SLOTS_LUA)

    def _hold(self, holders: Sequence[Capped], slot: str, now: float, until: float) -> int:
        """The script over ``holders`` (one slot of the cluster, or one Redis): 0, or the refusing one's index + 1."""
        keys = [waiting_key(holder) for holder, _ in holders]
        return int(self._slots_script(keys=keys, args=[repr(now), repr(until), slot, *(cap for _, cap in holders)]))

    def take_waiting(self, holders: Sequence[Capped], slot: str, now: float, until: float) -> str | None:
        if not self.cluster:
            refused = self._hold(holders, slot, now, until)
            return holders[refused - 1][0] if refused else None
        held: list[str] = []
        for holder, cap in holders:  # each holder's set is its own slot: one script each
            if self._hold([(holder, cap)], slot, now, until):
                if held:
                    self.release_waiting(held, slot)
                return holder
            held.append(holder)
        return None

    def renew_waiting(self, holders: Sequence[str], slot: str, now: float, until: float) -> None:
        groups = [[holder] for holder in holders] if self.cluster else [list(holders)]
        for group in groups:
            self._hold([(holder, 0) for holder in group], slot, now, until)

    def release_waiting(self, holders: Sequence[str], slot: str) -> None:
        pipe = self.client.pipeline(transaction=False)  # one round trip per master
        for holder in holders:
            pipe.zrem(waiting_key(holder), slot)
        pipe.execute()
