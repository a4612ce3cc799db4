"""The records database: the engine the settings name, and its schema brought up to date.

``RECORDS_DATABASE_URL`` names PostgreSQL (``postgresql://…``, driven by psycopg 3) for a deployment; left
empty, records go to an embedded SQLite file, ``records.sqlite3`` under ``DATA_DIR``, so the run command
needs nothing installed.  :func:`migrate` runs the Alembic migrations (``migrations/``) to head, then makes the
players' name keys again if the rules that make them changed, under a lock (PostgreSQL's advisory lock; a file
lock beside a SQLite file), so every API process may call it at start.

``python -m services.api.records.database`` migrates the configured database and exits (a deployment's
migration job).
"""

from __future__ import annotations

import fcntl
import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.dialects import postgresql, sqlite

log = logging.getLogger(__name__)
MIGRATIONS = Path(__file__).with_name("migrations")
SQLITE_FILE = "records.sqlite3"
MIGRATION_LOCK = 0x5EC0_4D5  # PostgreSQL advisory lock key held while migrating


def database_url(config: dict[str, Any]) -> str:
    """The SQLAlchemy URL of the records database (psycopg 3 for PostgreSQL; SQLite under ``DATA_DIR``)."""
    url = str(config["RECORDS_DATABASE_URL"] or "")
    if not url:
        path = Path(str(config["DATA_DIR"])).resolve() / SQLITE_FILE
        return f"sqlite:///{path}"
    for plain in ("postgresql://", "postgres://"):
        if url.startswith(plain):
            return "postgresql+psycopg://" + url[len(plain) :]
    return url


def insert_of(bind: Engine | Connection) -> Any:
    """The database's own ``INSERT`` (PostgreSQL's or SQLite's), which has ``ON CONFLICT``."""
    return postgresql.insert if bind.dialect.name == "postgresql" else sqlite.insert


def make_engine(url: str, pool_size: int = 2) -> Engine:
    """An engine with a small pool (the writer and the record reads share it), stale connections checked
    before use, and quick connection failures: a database that is down costs a request a 503, not a hang."""
    if url.startswith("sqlite"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(
        url, pool_size=pool_size, max_overflow=pool_size, pool_pre_ping=True, connect_args={"connect_timeout": 3}
    )


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """WAL: readers never wait for the writer; foreign keys on (SQLite's default is off)."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def migrate(engine: Engine, upkeep: Sequence[Callable[[Connection], object]] = ()) -> None:
    """Bring the schema to the newest migration, then run each ``upkeep`` step in the same transaction (the
    players' name keys, :func:`services.api.players.rekey.rekey_if_stale`: data the migrations cannot know,
    ICU's confusables); safe to run from many processes at once."""
    with _migration_lock(engine), engine.begin() as connection:
        config = alembic_config()
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
        for step in upkeep:
            step(connection)


@contextmanager
def _migration_lock(engine: Engine) -> Iterator[None]:
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            try:
                yield
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
        return
    path = engine.url.database
    lock = Path(f"{path}.migrate.lock") if path and path != ":memory:" else None
    if lock is None:
        yield
        return
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


def main() -> None:
    from services.api.config import load_config

    logging.basicConfig(level=logging.INFO)
    url = database_url(load_config())
    migrate(make_engine(url))
    log.info("records database migrated: %s", make_engine(url).url.render_as_string(hide_password=True))


if __name__ == "__main__":
    main()
