"""Commands sent at most once, on one pooled connection to the master of a key's slot.

A commit must not be re-sent blind: redis-py's ``execute_command`` retries after a connection error
(three times by default), and a script that ran before the connection dropped would then fail its
compare-and-set and turn an applied move into a refused one.  :class:`AtMostOnce` sends itself.

On a cluster it sends again only what it knows did not run: a connection refused (nothing was sent), and three
replies of a slot that moved or is moving (the first command was refused whole):

* ``MOVED``: the slot has another master (a failover, or a finished migration); the slot map is patched;
* ``ASK``: the slot is being migrated and the key is on its next master already; sent there behind ``ASKING``;
* ``TRYAGAIN``: a command naming several keys (a commit's script) on a slot being migrated, while they are not
  all on one side.  A commit names keys that do not exist yet (the seat's entry, the channel), so it gets this
  from both sides for as long as its slot is open: ``redis-cli --cluster`` moves a game's few keys in
  milliseconds, so the send is made again after a short pause, for at most ``SLOT_WAIT_SECONDS``.

``spades_store_slot_retries_total{reply}`` counts each.
"""

from __future__ import annotations

import logging
import queue
import time
from typing import Any

import hiredis
import redis
from redis.cluster import ClusterNode, RedisCluster
from redis.exceptions import AskError, MovedError, ResponseError, TryAgainError

from services.api.metrics import STORE_SLOT_RETRIES
from services.api.store.redis_client import node_at

log = logging.getLogger(__name__)

REDIRECTS = 5  # MOVED, ASK and refused connections followed at most this many times in one send
SLOT_WAIT_SECONDS = 2.0  # TRYAGAIN (the send's slot being migrated) waited out this long at most
FIRST_PAUSE, LONGEST_PAUSE = 0.005, 0.1  # the pause before a send made again after TRYAGAIN, doubling


class AtMostOnce:
    """The sender of a :class:`services.api.store.redis_store.RedisStore` (a ``redis.Redis`` or a cluster)."""

    def __init__(self, client: redis.Redis | RedisCluster, slot_wait: float = SLOT_WAIT_SECONDS) -> None:
        self.client = client
        self.cluster = isinstance(client, RedisCluster)
        self.slot_wait = slot_wait

    def send_once(self, key: str, *commands: tuple[Any, ...]) -> list[Any]:
        """``commands`` pipelined on one pooled connection to the master of
        ``key``'s slot, sent at most once; their replies, in order.

        The first command is the one on ``key``; any after it name no key
        (``WAIT``).  A lost connection raises (a 503: the client re-reads the
        game or retries with its Idempotency-Key) and, on a cluster, refreshes
        the slot map so the next request finds a promoted replica.  What is sent
        again, and why, is in the module docstring.  It also skips redis-py's
        per-call wrappers, a measurable part of a move.
        """
        packed = [hiredis.pack_command(command) for command in commands]  # minus a Python pass over the arguments
        if not self.cluster:
            return _raised(self._send_packed(key, packed))
        asking: ClusterNode | None = None  # the ASK target the next send goes to
        redirects, deadline, pause = 0, 0.0, FIRST_PAUSE
        while True:
            try:
                replies = self._send_packed(key, packed, asking)
            except _NotSent as refused:
                if redirects == REDIRECTS:
                    raise refused.error from None
                redirects, asking = redirects + 1, None
                STORE_SLOT_RETRIES.labels("refused").inc()
                continue
            first = replies[0]
            if isinstance(first, AskError) and redirects < REDIRECTS:  # MOVED is an AskError too
                redirects += 1
                if isinstance(first, MovedError):
                    self.client.nodes_manager.move_slot(first)
                    asking = None
                    STORE_SLOT_RETRIES.labels("MOVED").inc()
                else:
                    asking = node_at(self.client.nodes_manager, first.host, first.port)
                    STORE_SLOT_RETRIES.labels("ASK").inc()
                continue
            if isinstance(first, TryAgainError):
                now = time.monotonic()
                deadline = deadline or now + self.slot_wait
                if now < deadline:
                    STORE_SLOT_RETRIES.labels("TRYAGAIN").inc()
                    time.sleep(min(pause, deadline - now))
                    pause, asking = min(LONGEST_PAUSE, pause * 2), None
                    continue
            return _raised(replies)

    def _send_packed(self, key: str, packed: list[bytes], asking: ClusterNode | None = None) -> list[Any]:
        """Send, then read every reply (an error reply is returned, not raised, so none is left unread).  With
        ``asking``, the commands go to that node behind ``ASKING`` (whose reply is left out).  A connection that
        could not be made raises :class:`_NotSent` on a cluster: nothing was sent."""
        node = None
        if self.cluster:
            node = asking or self.client.get_node_from_key(key)
            if asking is not None:
                packed = [hiredis.pack_command(("ASKING",)), *packed]
        pool = (self.client.get_redis_connection(node) if node else self.client).connection_pool
        connection = None
        try:
            try:
                connection = pool.get_connection()  # connects, if it must: a failure here sent nothing
            except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as error:
                if node is None or isinstance(error.__context__, queue.Empty):  # no free connection in time: a 503
                    raise
                self.refresh_slots(node)
                raise _NotSent(error) from error
            connection.send_packed_command(packed)
            replies: list[Any] = []
            for _ in packed:
                try:
                    replies.append(connection.read_response())
                except ResponseError as error:  # a whole reply was read: the connection is sound
                    replies.append(error)
            return replies[1:] if asking is not None else replies
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


class _NotSent(Exception):
    """A connection to a cluster node could not be made: nothing was sent (``error`` says why)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


def _raised(replies: list[Any]) -> list[Any]:
    """The replies, or the first error among them raised."""
    error = next((reply for reply in replies if isinstance(reply, ResponseError)), None)
    if error is not None:
        raise error
    return replies
