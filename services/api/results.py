"""The AI result listener's subscriptions: one pub/sub connection per API process, one channel per awaited task.

Celery's Redis result backend PUBLISHes each task's result on ``celery-task-meta-<task id>`` the
moment it stores it.  A process subscribes to exactly the channels of the tasks it awaits (the
decisions it sent, the hints it abandoned) instead of the pattern ``celery-task-meta-*``, so a result
is delivered once, to its sender, however many API processes there are.

The machinery is :mod:`services.api.fanout`'s: ONE :class:`~services.api.fanout.Subscription` per
process (here plain ``SUBSCRIBE``, :class:`ChannelSubscription`: the result backend publishes with
``PUBLISH``) and ONE reader thread (a greenlet under gevent) blocked reading it.  Request threads or
greenlets subscribe and unsubscribe under the lock while the reader reads: the lock serialises every
command written on the connection and every change to the set of awaited channels, and the reader
holds it only to (re)build the connection, never while it waits for a message.  The reader hands each
result to an *applier* thread: applying a decision sends the seat's next turn, whose subscription
waits for a confirmation that only the reader can read.

- :meth:`ResultChannels.subscribe` waits (at most ``confirm_seconds``) for Redis to confirm the
  subscription, so the task is sent only once its result can't be published unheard.  If the reader
  is not running or its connection is broken, it does not wait: the task is sent anyway and the
  deadline sweep (:class:`services.api.ai_driver.AiDriver`) applies the stored result.
- A message ends its channel's subscription (a task publishes its result once);
  :meth:`ResultChannels.unsubscribe` ends it too when the result was dealt with another way.
- After the connection is lost the reader makes a new one and subscribes every channel still
  awaited; what was published meanwhile is found by the deadline sweep.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import ClassVar

import redis

from .fanout import Gauge, Notice, Subscription

log = logging.getLogger("spades.ai")
RESULT_PREFIX = "celery-task-meta-"


def result_channel(task_id: str) -> str:
    """The channel (and key) Celery's Redis result backend publishes (and stores) a task's result on."""
    return RESULT_PREFIX + task_id


class ChannelSubscription:
    """:class:`services.api.fanout.Subscription` on one pub/sub connection with plain channels (``SUBSCRIBE``)."""

    _KINDS: ClassVar[dict[str, str]] = {"subscribe": "subscribed", "message": "message"}

    def __init__(self, client: redis.Redis) -> None:
        self._pubsub = client.pubsub()

    def subscribe(self, channel: str) -> None:
        self._pubsub.subscribe(channel)

    def unsubscribe(self, channel: str) -> None:
        self._pubsub.unsubscribe(channel)

    def receive(self, timeout: float) -> Notice | None:
        message = self._pubsub.get_message(timeout=timeout)
        kind = self._KINDS.get(message["type"]) if message else None
        if message is None or kind is None:
            return None
        return kind, message["channel"].decode(), message["data"] if kind == "message" else None

    def close(self) -> None:
        self._pubsub.close()


class ResultChannels:
    """The process's result subscriptions and their reader (see the module docstring).

    ``on_message`` gets each result's payload, in the applier thread, in the order they arrived;
    ``subscriptions_gauge`` follows how many channels are awaited."""

    def __init__(
        self,
        connect: Callable[[], Subscription],
        on_message: Callable[[bytes], None],
        subscriptions_gauge: Gauge | None = None,
        poll_seconds: float = 1.0,
        confirm_seconds: float = 0.5,
    ) -> None:
        self.lock = threading.Lock()
        self._connect = connect
        self._on_message = on_message
        self._gauge = subscriptions_gauge
        self._poll_seconds = poll_seconds
        self._confirm_seconds = confirm_seconds
        self._awaited: dict[str, threading.Event] = {}  # channel -> its subscription is confirmed
        self._subscription: Subscription | None = None
        self._broken = False  # the connection failed and is not rebuilt yet: don't make senders wait
        self._reader: threading.Thread | None = None
        self._results: queue.Queue[bytes] = queue.Queue()  # from the reader to the applier
        self._stopped = threading.Event()

    def start(self) -> None:
        with self.lock:
            if self._reader is None:  # once: the reader never ends before stop()
                self._reader = threading.Thread(target=self._run, name="ai-listener", daemon=True)
                self._reader.start()
                threading.Thread(target=self._apply, name="ai-applier", daemon=True).start()

    def stop(self) -> None:
        self._stopped.set()

    def awaited(self) -> set[str]:
        """The channels subscribed (or to be, once connected) right now (tests)."""
        with self.lock:
            return set(self._awaited)

    def subscribe(self, task_id: str, wait: bool = True) -> bool:
        """Await ``task_id``'s result; with ``wait``, until Redis confirms it (bounded).  Whether it is confirmed."""
        channel = result_channel(task_id)
        # The reader holds the lock while it (re)connects, up to the connect timeout: a sender waits no
        # longer than it would for the confirmation, then goes without (the deadline sweep finds the result).
        if not self.lock.acquire(timeout=self._confirm_seconds):
            log.warning("ai result listener busy reconnecting; task sent unsubscribed", extra={"task_id": task_id})
            return False
        try:
            confirmed = self._awaited.get(channel)
            if confirmed is None:
                confirmed = self._awaited[channel] = threading.Event()
                self._send("subscribe", channel)
                self._count(1)
            # no reader, or no connection it could make: nothing would confirm it, so don't hold the send up
            wait = wait and self._reader is not None and self._reader.is_alive() and not self._broken
        finally:
            self.lock.release()
        if wait:
            return confirmed.wait(self._confirm_seconds)
        return confirmed.is_set()

    def unsubscribe(self, task_id: str) -> None:
        """Stop awaiting ``task_id``'s result (a no-op if it is not awaited)."""
        with self.lock:
            self._forget(result_channel(task_id))

    def _forget(self, channel: str) -> None:
        """Unsubscribe ``channel`` if it is awaited (under the lock)."""
        if self._awaited.pop(channel, None) is not None:
            self._send("unsubscribe", channel)
            self._count(-1)

    def _count(self, change: int) -> None:
        if self._gauge is not None:
            self._gauge.inc(change)

    def _send(self, action: str, channel: str) -> None:
        """A subscribe or unsubscribe (under the lock); a failure leaves the reader to rebuild the connection."""
        if self._subscription is None:
            return  # the reader subscribes every awaited channel when it connects
        try:
            getattr(self._subscription, action)(channel)
        except Exception:
            log.warning("ai result %s failed; reconnecting", action)
            self._drop_subscription()
            self._broken = True

    def _drop_subscription(self) -> None:
        if self._subscription is not None:
            try:
                self._subscription.close()
            except Exception:
                log.debug("closing a broken result subscription failed", exc_info=True)
            self._subscription = None

    def _run(self) -> None:
        backoff = 0.0
        while not self._stopped.is_set():
            try:
                subscription = self._connected()
                notice = subscription.receive(self._poll_seconds)
                backoff = 0.0
            except Exception as error:
                log.warning("ai listener reconnecting", extra={"error": error.__class__.__name__})
                with self.lock:
                    self._drop_subscription()
                    self._broken = True
                backoff = min(1.0, backoff * 2 or 0.05)
                self._stopped.wait(backoff)
                continue
            if notice is not None:
                self._dispatch(*notice)

    def _connected(self) -> Subscription:
        """The subscription, made (and subscribed to every awaited channel) if there is none."""
        with self.lock:
            if self._subscription is None:
                subscription = self._connect()
                try:
                    for channel, confirmed in self._awaited.items():
                        confirmed.clear()  # confirmed again by the new connection
                        subscription.subscribe(channel)
                except Exception:
                    subscription.close()
                    raise
                self._subscription = subscription
                self._broken = False
            return self._subscription

    def _dispatch(self, kind: str, channel: str, payload: bytes | None) -> None:
        if kind == "subscribed":
            with self.lock:
                confirmed = self._awaited.get(channel)
                if confirmed is not None:
                    confirmed.set()
            return
        with self.lock:  # one result per task: its channel is done
            self._forget(channel)
        self._results.put(payload or b"")

    def _apply(self) -> None:
        while not self._stopped.is_set():
            try:
                payload = self._results.get(timeout=self._poll_seconds)
            except queue.Empty:
                continue
            try:
                self._on_message(payload)
            except Exception:
                log.exception("could not apply an AI result")
