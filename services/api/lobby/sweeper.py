"""Each API process's lobby sweeper: a daemon thread that keeps quick match and the listing moving.

Every ``MATCH_SWEEP_INTERVAL_SECONDS`` it looks at the quick-match buckets that are due
(:meth:`services.api.lobby.matchmaker.Matchmaker.sweep_once`: requests whose wait ran out get their seats,
computers on the rest; groups a crashed process formed get their games); every second the public tables' due
checks (:func:`services.api.lobby.tables.check_tables`); every few seconds the waiting requests' gauge.  Every
step is safe with any number of sweepers: a bucket's changes are its own scripts, a group is held by one process
at a time (its lease), a table check is claimed.  Why a thread in each API process: the work is small and needs
what the API holds (the store, the commands' collaborators), and the processes already run the AI sweeper and
the records writer this way (docs/architecture.md).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import redis

from services.api.lobby.matchmaker import Matchmaker
from services.api.lobby.tables import check_tables
from services.api.metrics import MATCH_REQUESTS_WAITING

log = logging.getLogger(__name__)
TABLES_EVERY_SECONDS = 1.0
GAUGE_EVERY_SECONDS = 5.0
MAX_BACKOFF_SECONDS = 5.0  # after failures in a row, sweeps are this far apart at most


class LobbySweeper:
    def __init__(
        self,
        matchmaker: Matchmaker,
        interval: float,
        check_seconds: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.matchmaker = matchmaker
        self.interval = interval
        self.check_seconds = check_seconds
        self.clock = clock
        self._stop = threading.Event()
        self._next_tables = 0.0
        self._next_gauge = 0.0

    def start(self) -> None:
        threading.Thread(target=self._run, name="lobby-sweeper", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        pause = self.interval
        while not self._stop.wait(pause):
            try:
                self.sweep_once()
                pause = self.interval
            except Exception as error:  # the store unreachable (a failover): back off, a line per failure
                pause = min(MAX_BACKOFF_SECONDS, pause * 2)
                if isinstance(error, redis.RedisError):
                    log.warning("lobby sweep failed", extra={"error": error.__class__.__name__, "next_s": pause})
                else:
                    log.exception("lobby sweep failed")

    def sweep_once(self) -> None:
        self.matchmaker.sweep_once()
        now = self.clock()
        store = self.matchmaker.store
        if now >= self._next_tables:
            self._next_tables = now + TABLES_EVERY_SECONDS
            check_tables(store, now, self.check_seconds)
        if now >= self._next_gauge:
            self._next_gauge = now + GAUGE_EVERY_SECONDS
            MATCH_REQUESTS_WAITING.set(store.waiting_matches())
