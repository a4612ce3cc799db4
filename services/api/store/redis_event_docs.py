"""Events' documents in Redis (:class:`services.api.store.event_docs.EventDocs`): one hash per event,
``event:{<id>}``, with its version ``v`` and its ``doc``, written by ``lua/events/replace.lua`` only over the
version it was read at; the newest ids in the sorted set ``events:index`` (scored by creation time), trimmed to
the newest :data:`~services.api.store.event_docs.MOST_LISTED`.  Both expire :data:`TTL_SECONDS` after the last
change."""

from __future__ import annotations

import redis
from redis.cluster import RedisCluster

from services.api.store.event_docs import MOST_LISTED
from services.api.store.lua_scripts import lua

REPLACE_LUA = lua("events/replace.lua")
INDEX = "events:index"
TTL_SECONDS = 30 * 24 * 3600  # an event and its standings are kept a month after its last change


def event_key(event_id: str) -> str:
    return f"event:{{{event_id}}}"


class RedisEventDocs:
    def __init__(self, client: redis.Redis | RedisCluster) -> None:
        self.client = client
        self._replace = client.register_script(REPLACE_LUA)

    def event_doc(self, event_id: str) -> bytes | None:
        return self.client.hget(event_key(event_id), "doc")

    def write_event_doc(self, event_id: str, read_at: int, doc: bytes, created_ms: int) -> bool:
        if not self._replace(keys=[event_key(event_id)], args=[read_at, doc, TTL_SECONDS]):
            return False
        if read_at == 0:
            pipe = self.client.pipeline(transaction=False)
            pipe.zadd(INDEX, {event_id: created_ms})
            pipe.zremrangebyrank(INDEX, 0, -(MOST_LISTED + 1))
            pipe.expire(INDEX, TTL_SECONDS)
            pipe.execute()
        return True

    def newest_event_ids(self, limit: int) -> list[str]:
        ids = self.client.zrange(INDEX, 0, min(limit, MOST_LISTED) - 1, desc=True)
        return [i.decode() if isinstance(i, bytes) else i for i in ids]
