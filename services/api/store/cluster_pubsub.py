"""The fan-out :class:`~services.api.live.channel_reader.Subscription` on a Redis Cluster: one connection and reader per master.

Why not redis-py's ``ClusterPubSub``: its ``get_message`` fails ("pubsub connection not set") and its
``get_sharded_message`` polls the nodes' connections in turn, so a message waits for the reads of
the other nodes.  Here each master that owns a subscribed channel's slot gets one plain pub/sub
connection (``SSUBSCRIBE``), read by its own small thread (a greenlet under gevent) that puts every
notice on one queue: :meth:`ClusterSubscription.receive` returns a message from any node at once.

A failure on a node (a lost connection, ``MOVED`` because its slot moved, an ``SUNSUBSCRIBE`` the
server sent because it no longer serves the slot) refreshes the slot map and makes
:meth:`~ClusterSubscription.receive` raise: the hub closes this subscription and makes a new one,
which subscribes every game at its slot's current master; its listeners then re-read the store, so
nothing published meanwhile is missed.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any, ClassVar

from redis.client import PubSub
from redis.cluster import ClusterNode, RedisCluster

from services.api.store.protocol import Notice

log = logging.getLogger(__name__)


class SubscriptionLost(Exception):
    """A node's pub/sub connection failed or stopped serving a subscribed channel."""


class _NodeReader:
    """One master's pub/sub connection and the thread that reads it."""

    def __init__(self, node: ClusterNode, pubsub: PubSub) -> None:
        self.node = node
        self.pubsub = pubsub
        self.leaving: Counter[str] = Counter()  # channels unsubscribed whose confirmation is still to come
        self.thread: threading.Thread | None = None


class ClusterSubscription:
    """:class:`services.api.live.channel_reader.Subscription` over every master (see the module docstring).

    ``refresh_slots(node)`` re-reads the cluster's slot map after ``node`` failed (the store's own)."""

    _KINDS: ClassVar[dict[str, str]] = {"ssubscribe": "subscribed", "smessage": "message"}

    def __init__(
        self,
        client: RedisCluster,
        refresh_slots: Callable[[ClusterNode], None],
        poll_seconds: float = 0.5,
    ) -> None:
        self._client = client
        self._refresh_slots = refresh_slots
        self._poll_seconds = poll_seconds  # how soon a reader notices close()
        self._lock = threading.Lock()
        self._readers: dict[str, _NodeReader] = {}  # by node name
        self._channels: dict[str, str] = {}  # subscribed channel -> node name
        self._notices: queue.Queue[Notice | SubscriptionLost] = queue.Queue()
        self._closed = threading.Event()

    def subscribe(self, channel: str) -> None:
        node = self._client.get_node_from_key(channel)
        with self._lock:
            reader = self._readers.get(node.name)
            if reader is None:
                reader = self._readers[node.name] = _NodeReader(node, self._client.get_redis_connection(node).pubsub())
            self._channels[channel] = node.name
        self._send(reader, "ssubscribe", channel)
        with self._lock:
            start = reader.thread is None
            if start:
                reader.thread = threading.Thread(target=self._read, args=(reader,), name="fanout-node", daemon=True)
        if start:
            reader.thread.start()

    def unsubscribe(self, channel: str) -> None:
        with self._lock:
            reader = self._readers.get(self._channels.pop(channel, ""))
            if reader is None:
                return
            reader.leaving[channel] += 1
        self._send(reader, "sunsubscribe", channel)

    def receive(self, timeout: float) -> Notice | None:
        try:
            notice = self._notices.get(timeout=timeout)
        except queue.Empty:
            return None
        if isinstance(notice, SubscriptionLost):
            raise notice
        return notice

    def close(self) -> None:
        """Stop the readers: each ends within ``poll_seconds`` and closes its own connection."""
        self._closed.set()
        with self._lock:
            idle = [reader for reader in self._readers.values() if reader.thread is None]
        for reader in idle:  # never subscribed (its send failed): nobody else closes it
            reader.pubsub.close()

    def threads(self) -> list[threading.Thread]:
        """The node readers started so far (tests check that they end)."""
        with self._lock:
            return [reader.thread for reader in self._readers.values() if reader.thread is not None]

    def _send(self, reader: _NodeReader, command: str, channel: str) -> None:
        try:
            getattr(reader.pubsub, command)(channel)
        except Exception as error:
            self._refresh_slots(reader.node)
            raise SubscriptionLost(f"{command} on {reader.node.name}: {type(error).__name__}: {error}") from error

    def _read(self, reader: _NodeReader) -> None:
        try:
            while not self._closed.is_set():
                try:
                    message = reader.pubsub.get_message(timeout=self._poll_seconds)
                    notice = self._notice(reader, message) if message else None
                except Exception as error:  # lost connection, MOVED, or an unasked SUNSUBSCRIBE
                    if not self._closed.is_set():
                        log.warning("fan-out node %s lost: %s: %s", reader.node.name, type(error).__name__, error)
                        self._refresh_slots(reader.node)
                        lost = SubscriptionLost(f"{reader.node.name}: {type(error).__name__}: {error}")
                        lost.__cause__ = error
                        self._notices.put(lost)
                    return
                if notice is not None:
                    self._notices.put(notice)
        finally:
            reader.pubsub.close()

    def _notice(self, reader: _NodeReader, message: dict[str, Any]) -> Notice | None:
        channel = message["channel"].decode()
        if message["type"] == "sunsubscribe":
            with self._lock:
                if reader.leaving[channel]:
                    reader.leaving[channel] -= 1
                    if not reader.leaving[channel]:
                        del reader.leaving[channel]
                    return None
            raise SubscriptionLost(f"{reader.node.name} no longer serves {channel}")
        kind = self._KINDS.get(message["type"])
        if kind is None:
            return None
        return kind, channel, message["data"] if kind == "message" else None
