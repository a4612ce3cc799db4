"""The AI result listener's subscriptions: one pub/sub connection per API process, one channel per awaited task.

Celery's Redis result backend PUBLISHes each task's result on ``celery-task-meta-<task id>`` the
moment it stores it.  A process subscribes to exactly the channels of the tasks it awaits (the
decisions it sent, the hints it abandoned) instead of the pattern ``celery-task-meta-*``, so a result
is delivered once, to its sender, however many API processes there are.

The machinery is the fan-out hub's (:class:`services.api.live.channel_reader.ChannelReader`): ONE
subscription per process (plain ``SUBSCRIBE``: the result backend publishes with ``PUBLISH``) and ONE
reader thread (a greenlet under gevent); request threads or greenlets subscribe and unsubscribe under
the lock while the reader waits without it.  The reader hands each result to an *applier* thread (a few, so
that one result's round trips do not hold up the others'): applying a decision sends the seat's next turn,
whose subscription waits for a confirmation that only the reader can read.

- :meth:`ResultChannels.subscribe` waits (at most ``confirm_seconds``) for Redis to confirm the
  subscription, so the task is sent only once its result can't be published unheard.  If the reader
  is not running or its connection is broken, it does not wait: the task is sent anyway and the
  deadline sweep (:class:`services.api.ai_seats.driver.AiDriver`) applies the stored result.
- A request that waits for a result itself (a hint) subscribes with a :class:`ResultWaiter`: the
  reader hands that result to the waiter instead of the applier.  If the request stops waiting,
  :meth:`ResultChannels.release` keeps the subscription and the result goes to the applier.
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

from services.api.live.channel_reader import ChannelReader, Gauge
from services.api.store.protocol import Subscription

log = logging.getLogger(__name__)
RESULT_PREFIX = "celery-task-meta-"


def result_channel(task_id: str) -> str:
    """The channel (and key) Celery's Redis result backend publishes (and stores) a task's result on."""
    return RESULT_PREFIX + task_id


class ResultWaiter:
    """A request waiting for one task's result (a hint): the reader delivers it here."""

    def __init__(self) -> None:
        self._arrived = threading.Event()
        self.payload: bytes | None = None

    def deliver(self, payload: bytes) -> None:
        self.payload = payload
        self._arrived.set()

    def wait(self, timeout: float) -> bytes | None:
        """The result's payload, or None if it did not arrive within ``timeout`` seconds."""
        return self.payload if self._arrived.wait(max(0.0, timeout)) else None


class ResultChannels(ChannelReader):
    """The process's result subscriptions, their reader and applier (see the module docstring).

    ``on_message`` gets each result's payload in an applier thread (``appliers`` of them, taking the results in
    the order they arrived: a game has one decision awaited at a time, and its compare-and-set drops the rest);
    ``subscriptions_gauge`` follows how many channels are awaited."""

    name = "ai-results"
    max_backoff = 1.0

    def __init__(
        self,
        connect: Callable[[], Subscription],
        on_message: Callable[[bytes], None],
        subscriptions_gauge: Gauge | None = None,
        poll_seconds: float = 1.0,
        confirm_seconds: float = 0.5,
        appliers: int = 1,
    ) -> None:
        super().__init__(connect, poll_seconds)
        self._on_message = on_message
        self._gauge = subscriptions_gauge
        self._confirm_seconds = confirm_seconds
        self._awaited: dict[str, threading.Event] = {}  # channel -> its subscription is confirmed
        self._waiters: dict[str, ResultWaiter] = {}  # channel -> the request waiting for it itself
        self._results: queue.Queue[bytes] = queue.Queue()  # from the reader to the applier
        self._appliers: list[threading.Thread] = []
        self._applier_count = appliers  # results applied at once (threads; greenlets under gevent)

    def start(self) -> None:
        with self.lock:
            self._start_reader()
            while len(self._appliers) < self._applier_count:
                applier = threading.Thread(target=self._apply, name="ai-results-applier", daemon=True)
                self._appliers.append(applier)
                applier.start()

    def awaited(self) -> set[str]:
        """The channels subscribed (or to be, once connected) right now (tests)."""
        with self.lock:
            return set(self._awaited)

    def subscribe(self, task_id: str, wait: bool = True, waiter: ResultWaiter | None = None) -> bool:
        """Await ``task_id``'s result; with ``wait``, until Redis confirms it (bounded).  Whether it is confirmed.

        With a ``waiter`` the result is delivered to it rather than to ``on_message``."""
        channel = result_channel(task_id)
        # The reader holds the lock while it (re)connects, up to the connect timeout: a sender waits no
        # longer than it would for the confirmation, then goes without (the deadline sweep finds the result).
        if not self.lock.acquire(timeout=self._confirm_seconds):
            log.warning("ai result listener busy reconnecting; task sent unsubscribed", extra={"task_id": task_id})
            return False
        try:
            if waiter is not None:
                self._waiters[channel] = waiter
            confirmed = self._awaited.get(channel)
            if confirmed is None:
                confirmed = self._awaited[channel] = threading.Event()
                self._send("subscribe", channel)
                self._change(self._gauge, 1)
            # no reader, or no connection it could make: nothing would confirm it, so don't hold the send up
            wait = wait and self.reading() and not self._broken
        finally:
            self.lock.release()
        if wait:
            return confirmed.wait(self._confirm_seconds)
        return confirmed.is_set()

    def unsubscribe(self, task_id: str) -> None:
        """Stop awaiting ``task_id``'s result (a no-op if it is not awaited)."""
        with self.lock:
            self._forget(result_channel(task_id))

    def release(self, task_id: str) -> bytes | None:
        """The waiter of ``task_id`` stops waiting: its result, if it arrived meanwhile; else the
        subscription stays and the result, when it lands, goes to ``on_message``."""
        with self.lock:
            waiter = self._waiters.pop(result_channel(task_id), None)
        return None if waiter is None else waiter.payload

    def _forget(self, channel: str) -> None:
        """Unsubscribe ``channel`` if it is awaited (under the lock)."""
        self._waiters.pop(channel, None)
        if self._awaited.pop(channel, None) is not None:
            self._send("unsubscribe", channel)
            self._change(self._gauge, -1)

    def _wanted(self) -> list[str]:
        for confirmed in self._awaited.values():
            confirmed.clear()  # confirmed again by the new connection
        return list(self._awaited)

    def _dispatch(self, kind: str, channel: str, payload: bytes | None) -> None:
        if kind == "subscribed":
            with self.lock:
                confirmed = self._awaited.get(channel)
                if confirmed is not None:
                    confirmed.set()
            return
        with self.lock:  # one result per task: its channel is done
            waiter = self._waiters.get(channel)
            self._forget(channel)
        if waiter is not None:
            waiter.deliver(payload or b"")
        else:
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
