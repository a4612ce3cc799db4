"""Wake-ups for requests that wait on something other than a game's log: the lobby stream, a match's long poll.

One per API process (a :class:`~services.api.live.channel_reader.ChannelReader`: one pub/sub connection, one
reader), subscribed to a channel while at least one of the process's requests watches it (ref-counted, as
the fan-out hub does for games).  A publication only wakes: the store stays the truth, and a woken request
reads it.  A message that is a JSON list of strings wakes the watchers whose key is in it (a bucket's
publication names the match requests it changed) and those with no key, and every watcher when it holds
:data:`EVERYONE` (the bucket's count of waiting requests changed, which each of them shows); anything else wakes
every watcher
and is handed to the watchers with no key (the lobby's publication is the change itself, so a process's lobby
streams need not each read the store for it); a re-made subscription (a reconnect may have dropped messages)
or :meth:`Wakeups.drain` wakes every watcher and tells it to read the store.  A watcher's first read must
follow its subscription's confirmation (:meth:`Wakeups.watch` waits for it), so nothing published meanwhile
is missed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import orjson

from services.api.live.channel_reader import ChannelReader
from services.api.store.matches import EVERYONE
from services.api.store.protocol import Subscription


class Waiter:
    """One watching request: :meth:`wait` returns when woken (True) or after ``seconds`` (False); :meth:`take`
    hands over the messages delivered since (a watcher with no key), and whether to read the store instead."""

    def __init__(self, key: str | None) -> None:
        self.key = key
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._inbox: list[bytes] = []
        self._resync = False

    def wake(self, payload: bytes | None = None, resync: bool = False) -> None:
        with self._lock:
            if payload is not None and self.key is None:
                self._inbox.append(payload)
            self._resync = self._resync or resync
        self._event.set()

    def wait(self, seconds: float) -> bool:
        woken = self._event.wait(max(0.0, seconds))
        self._event.clear()
        return woken

    def take(self) -> tuple[list[bytes], bool]:
        with self._lock:
            inbox, resync = self._inbox, self._resync
            self._inbox, self._resync = [], False
        return inbox, resync


class _Channel:
    __slots__ = ("confirmed", "waiters")

    def __init__(self) -> None:
        self.waiters: set[Waiter] = set()
        self.confirmed = threading.Event()


class Wakeups(ChannelReader):
    """See the module docstring; ``draining`` is set once the process is stopping."""

    name = "wake-ups"

    def __init__(self, connect: Callable[[], Subscription], poll_seconds: float = 1.0, confirm_seconds: float = 2.0):
        super().__init__(connect, poll_seconds)
        self._confirm_seconds = confirm_seconds
        self._channels: dict[str, _Channel] = {}
        self.draining = False

    def counts(self) -> dict[str, int]:
        with self.lock:
            return {"waiters": sum(len(c.waiters) for c in self._channels.values()), "channels": len(self._channels)}

    def drain(self) -> None:
        """The process is stopping: every watcher wakes now (and sees ``draining``)."""
        with self.lock:
            self.draining = True
            for channel in self._channels.values():
                for waiter in channel.waiters:
                    waiter.wake(resync=True)

    @contextmanager
    def watch(self, channel_name: str, key: str | None = None) -> Iterator[Waiter]:
        """A waiter on ``channel_name`` for the block (woken by messages naming ``key``, or by any with None)."""
        waiter = Waiter(key)
        with self.lock:
            self._start_reader()
            channel = self._channels.get(channel_name)
            if channel is None:
                channel = self._channels[channel_name] = _Channel()
                self._send("subscribe", channel_name)
            channel.waiters.add(waiter)
        channel.confirmed.wait(self._confirm_seconds)  # unconfirmed (a broken connection): the waits time out
        try:
            yield waiter
        finally:
            with self.lock:
                channel.waiters.discard(waiter)
                if not channel.waiters and self._channels.get(channel_name) is channel:
                    del self._channels[channel_name]
                    self._send("unsubscribe", channel_name)

    def _wanted(self) -> list[str]:
        return list(self._channels)

    def _dispatch(self, kind: str, channel_name: str, payload: bytes | None) -> None:
        keys: set[str] | None = None  # None: wake everyone on the channel
        message = payload if kind == "message" else None  # None: a re-made subscription, read the store
        if message is not None:
            try:
                named = orjson.loads(message)
            except orjson.JSONDecodeError:
                named, message = None, None
            if isinstance(named, list) and all(isinstance(k, str) for k in named) and EVERYONE not in named:
                keys = set(named)
        with self.lock:
            channel = self._channels.get(channel_name)
            if channel is None:
                return
            if kind == "subscribed" and not channel.confirmed.is_set():
                channel.confirmed.set()
                return
            for waiter in channel.waiters:
                if keys is None or waiter.key is None or waiter.key in keys:
                    waiter.wake(message, resync=message is None)
