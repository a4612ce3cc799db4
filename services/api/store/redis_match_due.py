"""Quick match's due buckets in Redis (the ``*_match_due`` part of :class:`services.api.store.matches.MatchQueue`).

``mm:{due}`` is a sorted set of the buckets that need a look, scored by when (Unix ms), and ``mm:{due}:touch`` a
hash of each bucket's count of enqueues: one slot (docs/architecture.md, "Redis Cluster"), a few writes per
request, read by every process's sweep.  A raise applies only if the bucket's touch count is still the one its
sweep read, so a look never hides an enqueue that came after it.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import redis
from redis.cluster import RedisCluster

from services.api.store.lua_scripts import lua
from services.api.store.matches import DUE_KEY, TOUCH_KEY
from services.api.store.redis_matches import bucket_keys

LOWER_LUA = lua("match_due/lower.lua")

DUE_LUA = lua("match_due/due.lua")

RAISE_LUA = lua("match_due/raise.lua")


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


class RedisMatchDue:
    """The due buckets' operations of :class:`services.api.store.redis_store.RedisStore`."""

    client: redis.Redis | RedisCluster

    @cached_property
    def _due_scripts(self) -> dict[str, Any]:
        scripts = {"lower": LOWER_LUA, "due": DUE_LUA, "raise": RAISE_LUA}
        return {name: self.client.register_script(lua) for name, lua in scripts.items()}

    def lower_match_due(self, bucket: str, due_ms: int) -> None:
        self._due_scripts["lower"](keys=[DUE_KEY, TOUCH_KEY], args=[bucket, due_ms])

    def due_match_buckets(self, now_ms: int, limit: int) -> list[tuple[str, str]]:
        reply = self._due_scripts["due"](keys=[DUE_KEY, TOUCH_KEY], args=[now_ms, limit])
        return [(_text(reply[i]), _text(reply[i + 1])) for i in range(0, len(reply), 2)]

    def raise_match_due(self, bucket: str, next_ms: int | None, touched: str) -> bool:
        args = [bucket, "" if next_ms is None else next_ms, touched]
        return bool(self._due_scripts["raise"](keys=[DUE_KEY, TOUCH_KEY], args=args))

    def waiting_matches(self) -> int:
        buckets = [_text(raw) for raw in self.client.zrange(DUE_KEY, 0, -1)]
        if not buckets:
            return 0
        pipe = self.client.pipeline(transaction=False)
        for bucket in buckets:
            pipe.zcard(bucket_keys(bucket)[1])  # the bucket's waiting requests
        return sum(int(count) for count in pipe.execute())
