"""The records part of a process, from its settings: the repository on the configured database (migrated now
if it answers, else by the writer once it does) and the process's writer."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from services.api.games.record_schedule import RecordSchedule
from services.api.records.database import database_url, make_engine, migrate
from services.api.records.repository import RecordRepository
from services.api.records.writer import Ratings, RecordWriter
from services.api.store.protocol import GameStore

log = logging.getLogger(__name__)


def records_service(
    settings: dict[str, Any],
    store: GameStore,
    schedule: RecordSchedule,
    ratings: Callable[[Engine, bool], Ratings] | None = None,
    upkeep: Sequence[Callable[[Connection], object]] = (),
) -> RecordWriter:
    """The writer (not started), its repository at ``writer.repository``; ``ratings`` makes the hook that applies
    each finished game to its players on this engine (:func:`services.api.ratings.apply.applier`); ``upkeep``,
    the steps run after the migrations (:func:`services.api.records.database.migrate`)."""
    engine = make_engine(database_url(settings), int(settings["RECORDS_POOL_SIZE"]))
    computer_only = bool(settings["RATE_COMPUTER_ONLY_GAMES"])
    writer = RecordWriter(
        store,
        RecordRepository(engine),
        schedule,
        interval=float(settings["RECORDS_DRAIN_INTERVAL_SECONDS"]),
        retry=float(settings["RECORDS_RETRY_SECONDS"]),
        retention_days=float(settings["RECORDS_RETENTION_DAYS"]),
        ratings=ratings(engine, computer_only) if ratings is not None else None,
        rate_computer_only=computer_only,
        upkeep=upkeep,
    )
    try:
        migrate(engine, upkeep)
        writer.migrated = True
    except SQLAlchemyError as error:
        log.warning("records database not ready at start (the writer retries): %s", error.__class__.__name__)
    return writer
