"""The service's heartbeat, as one API process keeps it: the outages a turn clock gives back.

A person's time runs on the server's clock, so an outage (every API process stopped or restarting, the store failing
over: a move answered ``503`` or not at all) would run it down for the service's fault.  Each API process beats in
the store (:meth:`services.api.store.timers.Timers.beat`: its AI sweeper at every sweep, anything else that judges a
clock when its last beat is old); a gap longer than ``CLOCK_OUTAGE_SECONDS`` between any two beats is recorded
there as an outage, and :func:`services.api.games.clocks.credited` gives it back to every turn that ran through it.

**Before any deadline is acted on, the outages are known.**  :meth:`ServiceBeat.current` answers the outages as of
a beat *sent* less than half the bound ago (or beats first).  An outage not yet in that answer starts at or after
that beat (the store's last beat only moves forward) and is longer than the bound, so it has not ended yet: every
outage that ended before now is given back.  A beat that took too long to answer proves nothing; ``current`` beats
again, and a store that stays that slow refuses the change (``503``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

from services.api.games.clocks import NO_OUTAGES, Outages
from services.api.metrics import SERVICE_OUTAGES
from services.api.problems import ApiError
from services.api.store.timers import Span, Timers

log = logging.getLogger(__name__)
KEEP_SECONDS = 2 * 24 * 3600  # outages kept: longer than any turn (correspondence: a day a move)
ATTEMPTS = 3  # beats ``current`` sends before it gives up on a store that answers too late


class OutageSource(Protocol):
    """What judges a clock needs: the outages it must give back (:class:`ServiceBeat`, or :data:`NO_BEAT`)."""

    def current(self, within: float | None = None) -> Outages: ...


class NoBeat:
    """No heartbeat (``CLOCK_OUTAGE_SECONDS`` 0, and unit tests that don't care): nothing is given back."""

    def current(self, within: float | None = None) -> Outages:
        return NO_OUTAGES


NO_BEAT = NoBeat()


class ServiceBeat:
    """This process's heartbeat and the outages it last heard of (see module doc).  ``on_outage`` is called with
    the outage a beat of this process recorded (the app gives every running clock its time back at once)."""

    def __init__(
        self,
        store: Timers,
        outage_after: float,
        grace: float,
        clock: Callable[[], float] = time.time,
        keep: float = KEEP_SECONDS,
    ) -> None:
        self.store = store
        self.after_ms, self.keep_ms = round(outage_after * 1000), round(keep * 1000)
        self.fresh = outage_after / 2  # an answer younger than this holds every outage that has ended
        self.clock = clock
        self.on_outage: Callable[[Span], None] | None = None
        self._sent = float("-inf")  # when the beat whose answer is known was sent (s)
        self._known = Outages((), round(grace * 1000))
        self._lock = threading.Lock()

    def beat(self) -> Outages:
        """Beat now; the outages the store answers (one round trip; a store error is raised)."""
        sent = self.clock()
        recorded, spans = self.store.beat(int(sent * 1000), self.after_ms, self.keep_ms)
        with self._lock:
            if sent > self._sent:
                self._sent, self._known = sent, Outages(tuple(spans), self._known.grace_ms)
            known = self._known
        if recorded and spans:
            start, end = spans[-1]
            SERVICE_OUTAGES.inc()
            log.warning("service outage given back to the clocks", extra={"from_ms": start, "to_ms": end})
            if self.on_outage is not None:
                self.on_outage(spans[-1])
        return known

    def current(self, within: float | None = None) -> Outages:
        """Every outage that ended before now (see module doc), from the last beat if it was sent less than
        ``within`` (at most half the outage bound) ago, else from a new one; ``503`` when the store answers no beat
        in time."""
        bound = self.fresh if within is None else min(within, self.fresh)
        for _ in range(ATTEMPTS):
            with self._lock:
                if self.clock() - self._sent < bound:
                    return self._known
            self.beat()
        raise ApiError(503, "unavailable", "The service is catching up after an interruption; retry.")
