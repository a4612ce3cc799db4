"""Events' documents in Redis (:class:`services.api.store.event_docs.EventDocs`): one hash per event,
``event:{<id>}``, with its version ``v`` and its ``doc``, written by ``lua/events/replace.lua`` only over the
version it was read at; the newest ids in the sorted set ``events:index`` (scored by creation time), trimmed to
the newest :data:`~services.api.store.event_docs.MOST_LISTED`.  Both expire :data:`TTL_SECONDS` after the last
change.

A write is sent as a game's commit is (:class:`services.api.store.redis_confirmed.ConfirmedScript`): one the
replicas do not confirm in time is made but raises :class:`~services.api.store.protocol.NotReplicated` (a ``503``),
so an event's change that was answered (a round begun, its tables named) survives a failover as a move does."""

from __future__ import annotations

from typing import TYPE_CHECKING

import redis
from redis.cluster import RedisCluster

from services.api.store.event_docs import MOST_LISTED
from services.api.store.lua_scripts import lua
from services.api.store.redis_confirmed import ConfirmedScript

if TYPE_CHECKING:
    from services.api.store.redis_store import RedisStore

REPLACE_LUA = lua("events/replace.lua")
INDEX = "events:index"
TTL_SECONDS = 30 * 24 * 3600  # an event and its standings are kept a month after its last change


def event_key(event_id: str) -> str:
    return f"event:{{{event_id}}}"


class RedisEventDocs:
    def __init__(self, client: redis.Redis | RedisCluster, wait_replicas: int = 0, wait_timeout_ms: int = 500) -> None:
        self.client = client
        self._replace = ConfirmedScript(client, REPLACE_LUA, wait_replicas, wait_timeout_ms)

    @classmethod
    def beside(cls, store: RedisStore) -> RedisEventDocs:
        """The documents on ``store``'s client, confirmed by as many replicas as its commits are."""
        return cls(store.client, store.wait_replicas, store.wait_timeout_ms)

    def event_doc(self, event_id: str) -> bytes | None:
        return self.client.hget(event_key(event_id), "doc")

    def write_event_doc(self, event_id: str, read_at: int, doc: bytes, created_ms: int) -> bool:
        written, confirmed = self._replace.run([event_key(event_id)], [read_at, doc, TTL_SECONDS])
        if not written:
            return False
        if read_at == 0:
            pipe = self.client.pipeline(transaction=False)
            pipe.zadd(INDEX, {event_id: created_ms})
            pipe.zremrangebyrank(INDEX, 0, -(MOST_LISTED + 1))
            pipe.expire(INDEX, TTL_SECONDS)
            pipe.execute()
        if self._replace.unconfirmed(confirmed):
            raise self._replace.not_replicated(f"event {event_id}", confirmed)
        return True

    def newest_event_ids(self, limit: int) -> list[str]:
        ids = self.client.zrange(INDEX, 0, min(limit, MOST_LISTED) - 1, desc=True)
        return [i.decode() if isinstance(i, bytes) else i for i in ids]
