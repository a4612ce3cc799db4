"""The records writer: drains the outbox into the records database, off the move path.

One :class:`RecordWriter` per API process (a daemon thread, like the AI sweeper): every
``RECORDS_DRAIN_INTERVAL_SECONDS`` it claims the due outbox entries (the claim moves an entry a lease of
``RECORDS_RETRY_SECONDS`` ahead, so one process works on it and a failed step is retried then) and for
each game:

- **finished**: its record is written (shown at once), its players' ratings, stats and games applied (the
  ``ratings`` hook, :mod:`services.api.ratings.apply`: exactly once, however often this step is retried), then
  the game gets its expiry back (``FINISHED_GAME_TTL_SECONDS``) and the entry goes — the game had none since
  its last move, so it can't expire unrecorded, and a crash before the entry goes means it is claimed and
  applied again, which finds it applied;
- **in play**, more than the margin from its expiry: due again a margin before it;
- **in play within the margin** (abandoned): its record is written *hidden*
  (:meth:`~services.api.records.repository.RecordRepository.save`) and the entry is due again at the game's
  expiry; then the game is ended (:meth:`~services.api.store.record_outbox.RecordOutbox.end_game`: every key
  deleted at once, only at the version recorded) and only then is its record shown.  A move meanwhile wins:
  the game is not ended, it is due again a margin before its new expiry, and its end (or its next
  abandonment) replaces the record.  A game that never started (a seat stayed open) is not recorded;
- **gone** (expired, ended, flushed, never created): what is left of it goes, its hidden record (if any) is
  shown, and the entry goes.

A step the database refuses (down, unreachable) leaves the entry claimed until the retry, and holds a game in
play that would expire meanwhile (:meth:`~services.api.store.record_outbox.RecordOutbox.keep_game`): nothing
expires before its record is written, and a record is shown only after its game is gone, never before; an
entry leaves the outbox only once its record is shown.  A record written twice is stored once
(:meth:`services.api.records.repository.RecordRepository.save`).  As a net under all of it (an entry lost with
a Redis failover, records hidden by a migration), :meth:`RecordWriter.sweep` shows, a batch at a time and
once an hour, every hidden record whose game is gone.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import redis
from sqlalchemy import Connection
from sqlalchemy.exc import SQLAlchemyError

from services.api.games.record_schedule import RecordSchedule
from services.api.metrics import RECORD_WRITE_FAILURES, RECORDS_WRITTEN
from services.api.records.content import build
from services.api.records.crash_points import crash_point
from services.api.records.database import migrate
from services.api.records.repository import RecordRepository
from services.api.store.protocol import GameStore, NotReplicated

log = logging.getLogger(__name__)
DRAIN_BATCH = 100  # entries claimed per drain
PURGE_EVERY_SECONDS = 3600.0  # retention: old records deleted this often
SWEEP_EVERY_SECONDS = 3600.0  # hidden records whose game is gone are looked for this often (and at start)
SWEEP_BATCH = 500  # hidden records looked at per drain while a sweep is under way
END_EARLY_SECONDS = 1.0  # an abandoned game this close to its expiry is ended now
DAY_MS = 86_400_000
#: Applies a finished game's record to its players (document, ended Unix ms); idempotent (a game applied once).
Ratings = Callable[[dict[str, Any], int], Any]


class RecordWriter:
    """Writes due records (see module doc); ``retention_days`` 0 keeps them forever; ``ratings`` applies each
    finished game to its players (None: nobody's); ``rate_computer_only`` marks games of computers alone rated."""

    def __init__(
        self,
        store: GameStore,
        repository: RecordRepository,
        schedule: RecordSchedule,
        interval: float = 1.0,
        retry: float = 10.0,
        retention_days: float = 0,
        clock: Callable[[], float] = time.time,
        ratings: Ratings | None = None,
        rate_computer_only: bool = False,
        upkeep: Sequence[Callable[[Connection], object]] = (),
    ) -> None:
        self.store = store
        self.upkeep = upkeep  # run after the migrations (services.api.records.database.migrate)
        self.ratings = ratings
        self.rate_computer_only = rate_computer_only
        self.repository = repository
        self.schedule = schedule
        self.interval = interval
        self.retry = retry
        self.retention_days = retention_days
        self.clock = clock
        self.migrated = False
        self._purged_at = 0.0
        self._swept_at: float | None = None  # when the last sweep started (None: none yet)
        self._sweep_from: str | None = None  # the game id a sweep under way goes on after
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
                self.sweep()
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
                migrate(self.repository.engine, self.upkeep)
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
            self._end(game_id, None)
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
        document = build(record, self.rate_computer_only)
        ended_ms = record.changed_ms or record.created_ms
        try:
            stored = self.repository.save(document, record.created_ms, ended_ms)
        except SQLAlchemyError as error:
            self._failed("record not written", error)
            if not over:
                self.store.keep_game(game_id, margin)  # abandoned: held until its record is written
            return
        if stored:
            RECORDS_WRITTEN.labels(document["outcome"]).inc()
        if over and not self._rated(document, ended_ms):
            return  # the entry stays claimed: the game is applied at the retry
        if over:
            if not self.store.record_written(game_id, record.version):
                self.store.schedule_record(game_id, now)  # changed since it was read: record its newer version
        elif left is not None and left > END_EARLY_SECONDS:
            self.store.schedule_record(game_id, now + left)  # abandoned, recorded hidden: ended at its expiry
        else:
            self._end(game_id, record.version)

    def _rated(self, document: dict[str, Any], ended_ms: int) -> bool:
        """Apply a finished game to its players (applied before: nothing happens); False when the database
        refused (the entry is claimed again at the retry)."""
        if self.ratings is None:
            return True
        crash_point("record_saved")
        try:
            self.ratings(document, ended_ms)
        except SQLAlchemyError as error:
            self._failed("ratings not applied", error)
            return False
        crash_point("ratings_applied")
        return True

    def _end(self, game_id: str, version: int | None) -> None:
        """End the abandoned game at ``version`` (None: what is left of a game that is gone), then show its record
        and drop its entry; a game changed since is due again at once (a move wins)."""
        try:
            ended = self.store.end_game(game_id, version)
        except NotReplicated as error:  # deleted, but a failover could bring it back: not shown yet
            self._failed("game end not replicated", error)
            return
        if not ended:
            self.store.schedule_record(game_id, self.clock())
            return
        try:
            self.repository.reveal([game_id])
        except SQLAlchemyError as error:
            self._failed("record not shown", error)  # the entry stays claimed: shown at the retry
            return
        self.store.record_done(game_id)

    def _failed(self, what: str, error: Exception) -> None:
        RECORD_WRITE_FAILURES.inc()
        log.warning("%s, retried in %.0f s: %s", what, self.retry, error.__class__.__name__)

    def sweep(self) -> int:
        """Show the hidden records whose game is gone, :data:`SWEEP_BATCH` per call while a sweep is under way;
        a sweep starts at the first call and every :data:`SWEEP_EVERY_SECONDS`.  How many were shown."""
        now = self.clock()
        if self._sweep_from is None:
            if not self.migrated or (self._swept_at is not None and now - self._swept_at < SWEEP_EVERY_SECONDS):
                return 0
            self._swept_at, self._sweep_from = now, ""
        try:
            hidden = self.repository.hidden(self._sweep_from, SWEEP_BATCH)
            gone = [game_id for game_id in hidden if self.store.load(game_id) is None and self._cleared(game_id)]
            shown = self.repository.reveal(gone)
        except SQLAlchemyError as error:  # the database is down: this batch again at the next call
            log.warning("records sweep: database unavailable: %s", error.__class__.__name__)
            return 0
        self._sweep_from = hidden[-1] if len(hidden) == SWEEP_BATCH else None
        return shown

    def _cleared(self, game_id: str) -> bool:
        """What is left of a gone game is deleted (as the outbox's own path does); False when not replicated."""
        try:
            return self.store.end_game(game_id, None)
        except NotReplicated:
            return False

    def _purge(self) -> None:
        """Retention: records that ended more than ``retention_days`` ago go, once an hour."""
        now = self.clock()
        if self.retention_days <= 0 or now - self._purged_at < PURGE_EVERY_SECONDS:
            return
        self._purged_at = now
        before = int(now * 1000 - self.retention_days * DAY_MS)
        while self.repository.purge(before) > 0:
            pass
