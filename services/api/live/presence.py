"""Presence: whether a seat's person is at the table, from the streams and long polls that hold the seat's token.

Each ``GET /v1/games/{id}/stream`` and each ``GET /v1/games/{id}/events`` with ``wait`` > 0 that carries a seat's
token holds the seat's *lease* in the store (:mod:`services.api.store.table_life`) when it starts and renews it
every third of ``PRESENCE_LEASE_SECONDS`` (20 s) while it waits; nothing releases it: a seat is connected until
its last lease ends, so a person between two long polls, or an ``EventSource`` reconnecting, never flickers away,
and a closed page or a killed process counts as gone about 20 s after its last renewal (a stream asks its
connection before each renewal and ends once its client closed it: :mod:`services.api.live.peer`).  Views read the leases at
each ``GET`` (``seats[i].connected``, never cached); streams hear a change as ``event: presence``: the store call
that changes who is connected publishes it on the game's channel.  A lease that lapses is noticed by the next
holder's renewal (a seat's stream renews every third of a lease; a spectator's stream, holding no lease, drops
lapsed ones once a lease), so the table hears of a page closed without a word within about two leases.

Cost: one store call when a stream or a seat's long poll starts, and one per renewal: a seat's stream every ~7 s
(its wait is cut to that, instead of its heartbeat), a spectator's every 20 s.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from services.api.metrics import PRESENCE_HOLDS
from services.api.store.protocol import GameStore

log = logging.getLogger(__name__)
RENEWALS_PER_LEASE = 3


@dataclass(frozen=True, slots=True)
class PresenceSettings:
    """The lease (``PRESENCE_LEASE_SECONDS``; 0: presence off) and the clock leases are told in."""

    lease_seconds: float = 20.0
    clock: Callable[[], float] = field(default=time.time, compare=False)

    @property
    def renew_seconds(self) -> float:
        return self.lease_seconds / RENEWALS_PER_LEASE


class SeatPresence:
    """One waiting request's part in its game's presence: its seat's lease (a spectator's: none, it only drops
    lapsed leases so the table hears of them)."""

    def __init__(self, store: GameStore, settings: PresenceSettings, game_id: str, seat: int | None) -> None:
        self.store, self.settings, self.game_id, self.seat = store, settings, game_id, seat
        every = settings.renew_seconds if seat is not None else settings.lease_seconds  # a spectator only sweeps
        self.renew_seconds = every if settings.lease_seconds > 0 else 0.0

    def hold(self) -> list[bool] | None:
        """Take or renew the lease; each seat's connected flag after, or None (presence off, or the store failed:
        never raises, a missed renewal only lets the lease lapse early)."""
        if self.renew_seconds <= 0:
            return None
        now = int(self.settings.clock() * 1000)
        until = now + int(self.settings.lease_seconds * 1000)
        try:
            connected = self.store.hold_presence(self.game_id, self.seat, now, until)
        except Exception:
            log.warning("could not hold a seat's presence", extra={"game_id": self.game_id}, exc_info=True)
            return None
        PRESENCE_HOLDS.inc()
        return connected

    def renew(self) -> None:
        self.hold()


class Renewals:
    """Several renewals a waiting request makes, each at its own interval, as one ``renew`` called every
    :attr:`seconds` (the shortest interval; 0 when there is none)."""

    def __init__(self, *parts: tuple[Callable[[], object], float], clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        start = clock()
        self._parts = [[renew, every, start + every] for renew, every in parts if every > 0]
        self.seconds = min((every for _, every, _ in self._parts), default=0.0)

    def __call__(self) -> None:
        now = self._clock()
        for part in self._parts:
            renew, every, due = part
            if now >= due - self.seconds / 10:  # a call a little early still counts: the caller's timer is coarse
                renew()
                part[2] = now + every
