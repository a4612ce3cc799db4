"""The per-process fan-out hub: one subscription and one reader serve every waiting client of the process.

Why: a long poll or a stream that blocks in its own ``XREAD`` holds a Redis connection (and, under
gthread, a thread) per waiting client.  Instead every commit publishes its events on the game's shard
channel (:func:`services.api.store.protocol.notify_channel`); each API process holds ONE
:class:`~services.api.live.channel_reader.Subscription` (from :meth:`GameStore.subscription`), subscribed to a game's channel while at
least one of its clients waits on it (ref-counted), and ONE reader thread (a greenlet under gevent)
that hands each message to that game's :class:`Listener` objects.

Pub/sub is at-most-once, so it is only a wake-up with the events attached; the store stays the truth.
A listener reads the store on its first wait (after its game's subscription is confirmed), when the
published events do not follow its cursor (a gap), after the subscription was re-established (a
reconnect may have dropped messages) and whenever a wait times out.  Nothing here filters by seat:
callers pass every event through :func:`services.api.games.events.visible_event`.

The channel also carries *notices* (:mod:`services.api.store.table_life`: presence changes, quick messages),
JSON objects where a commit publishes an array: never log events, they go only to the listeners that asked for
them (a stream's), and a lost one is not recovered (the view reads presence and messages at each ``GET``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import orjson

from services.api.live.channel_reader import ChannelReader, Gauge
from services.api.store.protocol import GameStore, Subscription, notify_channel

log = logging.getLogger(__name__)


class Listener:
    """One waiting client's place in the hub: the events published for its game since its last wait."""

    def __init__(self, hub: FanoutHub, game_id: str, notices: bool = False) -> None:
        self._hub = hub
        self.game_id = game_id
        self._inbox: list[dict[str, Any]] = []
        self._resync = True  # the first wait reads the store
        self._wake = threading.Event()
        self.wants_notices = notices  # a stream: presence and quick messages end its wait too
        self._notices: list[dict[str, Any]] = []

    def deliver(self, events: list[dict[str, Any]] | None) -> None:
        """Called by the reader (under the hub's lock): new events, or None for "re-read the store"."""
        if events is None:
            self._resync = True
        else:
            self._inbox.extend(events)
        self._wake.set()

    def notify(self, notice: dict[str, Any]) -> None:
        """Called by the reader (under the hub's lock): a table notice (presence, a quick message), kept only by a
        listener that wants them."""
        if self.wants_notices:
            self._notices.append(notice)
            self._wake.set()

    def take_notices(self) -> list[dict[str, Any]]:
        """The notices delivered since the last call (:mod:`services.api.store.table_life`)."""
        with self._hub.lock:
            notices, self._notices = self._notices, []
        return notices

    def wake(self) -> None:
        """End the current wait early (the hub is draining)."""
        self._wake.set()

    def wait(self, after: int, limit: int, seconds: float) -> list[dict[str, Any]]:
        """Up to ``limit`` events after ``after``, waiting up to ``seconds`` for the first one (or for a notice, for
        a listener that wants them: then possibly none)."""
        deadline = self._hub.clock() + seconds
        while True:
            found = self._take(after, limit)
            if not found and self._notices:
                return found
            remaining = deadline - self._hub.clock()
            if found or remaining <= 0 or self._hub.draining:
                return found if found or seconds <= 0 else self._read(after, limit)  # a timeout re-checks
            self._wake.wait(remaining)

    def _take(self, after: int, limit: int) -> list[dict[str, Any]]:
        with self._hub.lock:
            inbox, resync = self._inbox, self._resync
            self._inbox, self._resync = [], False
            self._wake.clear()
        fresh = [e for e in inbox if e["seq"] > after]
        contiguous = all(e["seq"] == after + 1 + i for i, e in enumerate(fresh))
        if resync or not contiguous or len(fresh) > limit:
            return self._read(after, limit)
        return fresh

    def _read(self, after: int, limit: int) -> list[dict[str, Any]]:
        found = self._hub.store.events_after(self.game_id, after, limit)
        if len(found) == limit:  # there may be more: the next wait reads the store again
            with self._hub.lock:
                self._resync = True
        return found


class _Game:
    __slots__ = ("confirmed", "listeners")

    def __init__(self) -> None:
        self.listeners: set[Listener] = set()
        self.confirmed = threading.Event()  # the subscription is active: the store read after it misses nothing


class FanoutHub(ChannelReader):
    """One per API process (see the module docstring); the reader starts with the first listener."""

    name = "fan-out"

    def __init__(
        self,
        store: GameStore,
        connect: Callable[[], Subscription],
        listeners_gauge: Gauge | None = None,
        subscriptions_gauge: Gauge | None = None,
        poll_seconds: float = 1.0,
        confirm_seconds: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(connect, poll_seconds)
        self.store = store
        self.clock = clock
        self._listeners_gauge = listeners_gauge
        self._subscriptions_gauge = subscriptions_gauge
        self._confirm_seconds = confirm_seconds
        self._games: dict[str, _Game] = {}  # by channel
        self.draining = False  # set once by drain(): the process is stopping

    def counts(self) -> dict[str, int]:
        """Listeners, subscribed games and reader threads right now (tests and gauges)."""
        with self.lock:
            listeners = sum(len(game.listeners) for game in self._games.values())
            readers = int(self.reading())
            return {"listeners": listeners, "subscriptions": len(self._games), "readers": readers}

    def drain(self) -> None:
        """The process is stopping (gunicorn's SIGTERM, a rolling deploy): every wait returns now and stops
        waiting from here on, so long polls answer at once and streams end, and the server's graceful stop
        does not wait out its timeout for clients that would only reconnect to another process."""
        with self.lock:
            self.draining = True
            for game in self._games.values():
                for listener in game.listeners:
                    listener.wake()

    def wait_events(
        self,
        game_id: str,
        after: int,
        limit: int,
        wait_seconds: float,
        renew: Callable[[], None] | None = None,
        renew_seconds: float = 0.0,
    ) -> list[dict[str, Any]]:
        """The long poll's read: no subscription when it does not wait.  ``renew()`` is called every
        ``renew_seconds`` of a wait that lasts longer (the request's slot among its client's waiting
        requests, :mod:`services.api.live.waiting_caps`)."""
        if wait_seconds <= 0:
            return self.store.events_after(game_id, after, limit)
        with self.listen(game_id) as listener:
            if renew is None or renew_seconds <= 0 or wait_seconds <= renew_seconds:
                return listener.wait(after, limit, wait_seconds)
            deadline = self.clock() + wait_seconds
            while True:
                remaining = deadline - self.clock()
                found = listener.wait(after, limit, min(remaining, renew_seconds))
                if found or remaining <= renew_seconds or self.draining:
                    return found
                renew()

    @contextmanager
    def listen(self, game_id: str, notices: bool = False) -> Iterator[Listener]:
        """A listener on the game for the block's duration; leaving it drops the subscription with the last one.
        With ``notices``, it also takes the game's table notices (:meth:`Listener.take_notices`)."""
        listener = self._join(game_id, notices)
        try:
            yield listener
        finally:
            self._leave(listener)

    def _join(self, game_id: str, notices: bool = False) -> Listener:
        listener = Listener(self, game_id, notices)
        channel = notify_channel(game_id)
        with self.lock:
            self._start_reader()
            game = self._games.get(channel)
            if game is None:
                game = self._games[channel] = _Game()
                self._send("subscribe", channel)
                self._change(self._subscriptions_gauge, 1)
            game.listeners.add(listener)
            self._change(self._listeners_gauge, 1)
        # Unconfirmed in time (a broken connection): the listener still reads the store first, and again
        # at every timeout, so it can only be late, never miss an event.
        game.confirmed.wait(self._confirm_seconds)
        return listener

    def _leave(self, listener: Listener) -> None:
        channel = notify_channel(listener.game_id)
        with self.lock:
            game = self._games[channel]
            game.listeners.discard(listener)
            self._change(self._listeners_gauge, -1)
            if not game.listeners:
                del self._games[channel]
                self._send("unsubscribe", channel)
                self._change(self._subscriptions_gauge, -1)

    def _wanted(self) -> list[str]:
        return list(self._games)

    def _dispatch(self, kind: str, channel: str, payload: bytes | None) -> None:
        events = None  # None tells a listener to re-read the store
        if kind == "message":
            try:
                events = orjson.loads(payload or b"")
            except orjson.JSONDecodeError:  # never let one bad message stop the reader: re-read the store
                log.warning("unreadable fan-out message on %s; its listeners re-read the store", channel)
        with self.lock:
            game = self._games.get(channel)
            if game is None:
                return  # a message or confirmation for a game nobody waits on any more
            if kind == "subscribed" and not game.confirmed.is_set():
                game.confirmed.set()
                return
            if isinstance(events, dict):  # a table notice (an object; a commit's events are an array): no log event
                for listener in game.listeners:
                    listener.notify(events)
                return
            # a message's events, or None: re-subscribed after a reconnect (messages may have been lost)
            # or an unreadable message
            for listener in game.listeners:
                listener.deliver(events)
