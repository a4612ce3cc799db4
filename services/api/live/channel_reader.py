"""One pub/sub connection and one reader per process, shared by everything the process awaits.

The fan-out hub (:mod:`services.api.live.fanout`, game events) and the AI result listener
(:mod:`services.api.ai_seats.results`, task results) each hold one :class:`Subscription` and one reader thread
(a greenlet under gevent) instead of a connection per waiting request.  Request threads or greenlets
subscribe and unsubscribe under :attr:`ChannelReader.lock` while the reader waits for messages without
it; the reader takes the lock only to (re)build the connection.  A failed command or a lost connection
drops the connection, and the reader makes a new one subscribed to every channel still wanted: what was
published meanwhile is for the owner to recover (a store read, a deadline sweep).
"""

from __future__ import annotations

import logging
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from typing import Protocol

from services.api.store.protocol import Subscription

log = logging.getLogger(__name__)


class Gauge(Protocol):
    def inc(self, amount: float = 1) -> None: ...

    def dec(self, amount: float = 1) -> None: ...


class ChannelReader(ABC):
    """The connection, its reader and the lock (see the module docstring).  A subclass says which
    channels a new connection subscribes (:meth:`_wanted`) and what a notice means (:meth:`_dispatch`)."""

    name = "pub/sub"  # for logs and the reader thread's name
    max_backoff = 2.0  # seconds between attempts to reconnect, at most

    def __init__(self, connect: Callable[[], Subscription], poll_seconds: float) -> None:
        self.lock = threading.Lock()
        self._connect = connect
        self._poll_seconds = poll_seconds
        self._subscription: Subscription | None = None
        self._broken = False  # the connection failed and is not rebuilt yet: nothing will confirm a subscribe
        self._reader: threading.Thread | None = None
        self._stopped = threading.Event()

    def stop(self) -> None:
        self._stopped.set()

    def reading(self) -> bool:
        """Whether the reader runs (then a subscribe will be confirmed once it is connected)."""
        return self._reader is not None and self._reader.is_alive()

    @abstractmethod
    def _wanted(self) -> Iterable[str]:
        """The channels a new connection subscribes (called under the lock)."""

    @abstractmethod
    def _dispatch(self, kind: str, channel: str, payload: bytes | None) -> None:
        """A notice from the connection (called by the reader, without the lock)."""

    @staticmethod
    def _change(gauge: Gauge | None, amount: int) -> None:
        """Move a gauge of the owner's, if it has one."""
        if gauge is not None:
            gauge.inc(amount)

    def _start_reader(self) -> None:
        """Start the reader unless it runs (under the lock)."""
        if not self.reading():
            self._reader = threading.Thread(target=self._run, name=f"{self.name}-reader", daemon=True)
            self._reader.start()

    def _send(self, action: str, channel: str) -> None:
        """A subscribe or unsubscribe (under the lock); a failure leaves the reader to rebuild the connection."""
        if self._subscription is None:
            return  # the reader subscribes every wanted channel when it connects
        try:
            getattr(self._subscription, action)(channel)
        except Exception:
            log.warning("%s %s failed; reconnecting", self.name, action)
            self._drop_subscription()

    def _drop_subscription(self) -> None:
        """Close the connection (under the lock)."""
        self._broken = True
        if self._subscription is not None:
            try:
                self._subscription.close()
            except Exception:
                log.debug("closing a broken %s subscription failed", self.name, exc_info=True)
            self._subscription = None

    def _run(self) -> None:
        backoff = 0.0
        while not self._stopped.is_set():
            try:
                subscription = self._connected()
                notice = subscription.receive(self._poll_seconds)
                backoff = 0.0
            except Exception:
                log.warning("%s subscription lost; reconnecting", self.name, exc_info=True)
                with self.lock:
                    self._drop_subscription()
                backoff = min(self.max_backoff, backoff * 2 or 0.05)
                self._stopped.wait(backoff)
                continue
            if notice is not None:
                self._dispatch(*notice)

    def _connected(self) -> Subscription:
        """The subscription, made (and subscribed to every wanted channel) if there is none."""
        with self.lock:
            if self._subscription is None:
                subscription = self._connect()
                try:
                    for channel in self._wanted():
                        subscription.subscribe(channel)
                except Exception:
                    subscription.close()  # half made (a node down): closed, so its connections don't pile up
                    raise
                self._subscription = subscription
                self._broken = False
            return self._subscription
