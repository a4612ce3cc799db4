"""The records writer: drains the outbox into the records database, off the move path.

One :class:`RecordWriter` per API process (a daemon thread, like the AI sweeper): every
``RECORDS_DRAIN_INTERVAL_SECONDS`` it claims the due outbox entries (the claim moves an entry a lease of
``RECORDS_RETRY_SECONDS`` ahead, so one process works on it and a failed write is retried then) and for
each game:

- **gone** (expired, flushed, never created): the entry goes;
- **finished**: its record is written, then the game gets its expiry back (``FINISHED_GAME_TTL_SECONDS``)
  and the entry goes — the game had none since its last move, so it can't expire unrecorded;
- **in play**, more than the margin from its expiry: due again a margin before it; within the margin
  (abandoned): its record is written as ``abandoned`` and the entry is due again just after the expiry
  (a move meanwhile pushes both back, and its end replaces the record).  A game that never started (a seat
  stayed open) is not recorded.

A write the database refuses (down, unreachable) leaves the entry claimed until the retry, and holds a
game in play that would expire meanwhile (:meth:`~services.api.store.record_outbox.RecordOutbox.keep_game`):
nothing expires before its record is written.  A record written twice is stored once
(:meth:`services.api.records.repository.RecordRepository.save`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import redis
from sqlalchemy.exc import SQLAlchemyError

from services.api.games.record_outbox import RecordSchedule
from services.api.metrics import RECORD_WRITE_FAILURES, RECORDS_WRITTEN
from services.api.records.content import build
from services.api.records.database import migrate
from services.api.records.repository import RecordRepository
from services.api.store.protocol import GameStore

log = logging.getLogger(__name__)
DRAIN_BATCH = 100  # entries claimed per drain
PURGE_EVERY_SECONDS = 3600.0  # retention: old records deleted this often
DAY_MS = 86_400_000


class RecordWriter:
    """Writes due records (see module doc); ``retention_days`` 0 keeps them forever."""

    def __init__(
        self,
        store: GameStore,
        repository: RecordRepository,
        schedule: RecordSchedule,
        interval: float = 1.0,
        retry: float = 10.0,
        retention_days: float = 0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.repository = repository
        self.schedule = schedule
        self.interval = interval
        self.retry = retry
        self.retention_days = retention_days
        self.clock = clock
        self.migrated = False
        self._purged_at = 0.0
        self._stop = threading.Event()

    def start(self) -> None:
        threading.Thread(target=self._run, name="records-writer", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        store_down = False
        while not self._stop.wait(self.interval):
            try:
                self.drain()
                self._purge()
                store_down = False
            except redis.exceptions.RedisError as error:  # the game store is down: the entries wait in it
                if not store_down:  # logged once per outage
                    log.warning("records writer: game store unavailable: %s", error.__class__.__name__)
                store_down = True
            except Exception:  # the thread must survive anything a drain meets
                log.exception("records writer: drain failed")

    def drain(self) -> int:
        """Handle every due entry (after migrating the database, the first time it answers); how many."""
        if not self.migrated:
            try:
                migrate(self.repository.engine)
            except SQLAlchemyError as error:
                log.warning("records database not ready: %s", error.__class__.__name__)
                return 0
            self.migrated = True
        handled = 0
        while True:
            claimed = self.store.claim_records(self.clock(), self.retry, DRAIN_BATCH)
            for game_id in claimed:
                self.handle(game_id)
            handled += len(claimed)
            if len(claimed) < DRAIN_BATCH:
                return handled

    def handle(self, game_id: str) -> None:
        """One claimed entry (see module doc)."""
        record = self.store.load(game_id)
        if record is None:
            self.store.record_done(game_id)
            return
        now, margin = self.clock(), self.schedule.margin
        over = record.state.phase == "game_over"
        left = None if over else self.store.game_ttl(game_id)
        if left is not None and left > margin:
            self.store.schedule_record(game_id, now + left - margin)
            return
        if not over and not record.started:  # never played (a seat stayed open): nothing to record
            self.store.schedule_record(game_id, now + (left or margin) + 1)
            return
        document = build(record)
        try:
            self.repository.save(document, record.created_ms, record.changed_ms or record.created_ms)
        except SQLAlchemyError as error:
            RECORD_WRITE_FAILURES.inc()
            log.warning("record not written, retried in %.0f s: %s", self.retry, error.__class__.__name__)
            if not over:
                self.store.keep_game(game_id, margin)  # abandoned: held until its record is written
            return
        RECORDS_WRITTEN.labels(document["outcome"]).inc()
        if not over:
            self.store.schedule_record(game_id, now + (left or margin) + 1)
        elif not self.store.record_written(game_id, record.version):
            self.store.schedule_record(game_id, now)  # changed since it was read: record its newer version

    def _purge(self) -> None:
        """Retention: records that ended more than ``retention_days`` ago go, once an hour."""
        now = self.clock()
        if self.retention_days <= 0 or now - self._purged_at < PURGE_EVERY_SECONDS:
            return
        self._purged_at = now
        before = int(now * 1000 - self.retention_days * DAY_MS)
        while self.repository.purge(before) > 0:
            pass
