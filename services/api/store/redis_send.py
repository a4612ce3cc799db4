"""Commands sent at most once, on one pooled connection to the master of a key's slot.

A commit must not be re-sent blind: redis-py's ``execute_command`` retries after a connection error
(three times by default), and a script that ran before the connection dropped would then fail its
compare-and-set and turn an applied move into a refused one.  :class:`AtMostOnce` sends itself.
"""

from __future__ import annotations

import logging
from typing import Any

import hiredis
import redis
from redis.cluster import ClusterNode, RedisCluster
from redis.exceptions import MovedError, ResponseError

log = logging.getLogger(__name__)


class AtMostOnce:
    """The sender of a :class:`services.api.store.redis_store.RedisStore` (a ``redis.Redis`` or a cluster)."""

    def __init__(self, client: redis.Redis | RedisCluster) -> None:
        self.client = client
        self.cluster = isinstance(client, RedisCluster)

    def send_once(self, key: str, *commands: tuple[Any, ...]) -> list[Any]:
        """``commands`` pipelined on one pooled connection to the master of
        ``key``'s slot, sent at most once; their replies, in order.

        A commit must not be re-sent blind: ``execute_command`` retries after a
        connection error (three times by default), and a script that ran before
        the connection dropped would then fail its compare-and-set and turn an
        applied move into a refused one.  Here a lost connection is a 503 and
        the client re-reads the game (or retries with its Idempotency-Key).
        On a cluster a lost connection also refreshes the slot map, so the next
        request finds the promoted replica, and a ``MOVED`` reply (nothing ran)
        is followed, once, to the slot's new master.  It also skips redis-py's
        per-call wrappers, a measurable part of a move.
        """
        packed = [hiredis.pack_command(command) for command in commands]  # minus a Python pass over the arguments
        for _ in range(2):
            replies = self._send_packed(key, packed)
            moved = next((reply for reply in replies if isinstance(reply, MovedError)), None)
            if moved is None or not self.cluster:
                break
            self.client.nodes_manager.move_slot(moved)
        error = next((reply for reply in replies if isinstance(reply, ResponseError)), None)
        if error is not None:
            raise error
        return replies

    def _send_packed(self, key: str, packed: list[bytes]) -> list[Any]:
        """Send, then read every reply (an error reply is returned, not raised, so none is left unread)."""
        node = self.client.get_node_from_key(key) if self.cluster else None
        pool = (self.client.get_redis_connection(node) if node else self.client).connection_pool
        connection = None
        try:
            connection = pool.get_connection()
            connection.send_packed_command(packed)
            replies: list[Any] = []
            for _ in packed:
                try:
                    replies.append(connection.read_response())
                except ResponseError as error:  # a whole reply was read: the connection is sound
                    replies.append(error)
            return replies
        except BaseException as error:
            if connection is not None:
                connection.disconnect()
            if node is not None and isinstance(error, redis.exceptions.ConnectionError | redis.exceptions.TimeoutError):
                self.refresh_slots(node)
            raise
        finally:
            if connection is not None:
                pool.release(connection)

    def refresh_slots(self, failed: ClusterNode) -> None:
        """Re-read the cluster's slot map (asking the failed node last), as redis-py does after a lost connection."""
        try:
            self.client.nodes_manager.initialize(last_failed_node_name=failed.name)
        except redis.RedisError as error:  # the next request tries again
            log.warning("cluster slot map not refreshed", extra={"error": error.__class__.__name__})
