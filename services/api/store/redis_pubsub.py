"""A :class:`services.api.store.protocol.Subscription` on one plain Redis pub/sub connection
(a cluster's is :mod:`services.api.store.cluster_pubsub`)."""

from __future__ import annotations

import redis

from services.api.store.protocol import Notice


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
