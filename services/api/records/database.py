"""The records database: the engine the settings name, and its schema brought up to date.

``RECORDS_DATABASE_URL`` names PostgreSQL (``postgresql://…``, driven by psycopg 3) for a deployment; left
empty, records go to an embedded SQLite file, ``records.sqlite3`` under ``DATA_DIR``, so the run command
needs nothing installed.  :func:`migrate` runs the Alembic migrations (``migrations/``), then makes the
players' name keys again if the rules that make them changed, under a lock (PostgreSQL's advisory lock; a file
lock beside a SQLite file), so every API process may call it at start.

Two releases run side by side during a rolling upgrade and a rollback (docs/operations.md, "Deploy" and "Roll
back"), so a migration is an *expand* (the old release's code works on the schema after it: a nullable column, a
new table, a backfill) or a *contract* (a module that says ``contract = True``: NOT NULL, a drop; only the new
release's code works after it).  At start :func:`migrate` applies every revision but the contract steps at the
end of the history, which wait for the old release to be gone: ``--contract`` applies them, ``--undo-contract``
takes them back before a rollback (a contract step followed by newer revisions came with an older release and is
applied at start).  A database at a revision this code does not know was migrated by a newer release: it is left
as it is (its expand steps keep this code working), so an old release starts during a rollback.

``python -m services.api.records.database [--contract | --undo-contract]`` migrates the configured database as a
process's start does (a deployment's migration job), or applies or takes back the contract steps, and exits.
"""

from __future__ import annotations

import argparse
import fcntl
import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
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


def alembic_config(location: Path = MIGRATIONS) -> Config:
    config = Config()
    config.set_main_option("script_location", str(location))
    return config


def migrate(
    engine: Engine, upkeep: Sequence[Callable[[Connection], object]] = (), location: Path = MIGRATIONS
) -> str | None:
    """Bring the schema up to the last revision before the contract steps at the end of the history (the module
    docstring), then run each ``upkeep`` step in the same transaction (the players' name keys,
    :func:`services.api.players.rekey.rekey_if_stale`: data the migrations cannot know, ICU's confusables); safe
    to run from many processes at once.  The database's revision after it, or None when a newer release's
    revision (one this code does not know) was left as it is."""
    with _migration_lock(engine), engine.begin() as connection:
        config = _config_on(connection, location)
        history = History(config, connection)
        revision = history.current
        if history.ahead:
            log.warning(
                "records database at revision %s, which this release does not know (a newer release migrated it): "
                "left as it is",
                ", ".join(history.ahead),
            )
            revision = None
        elif history.behind(history.start_target):
            command.upgrade(config, history.start_target)
            revision = history.start_target
        for step in upkeep:
            step(connection)
        return revision


def contract(engine: Engine, undo: bool = False, location: Path = MIGRATIONS) -> str | None:
    """Apply the contract steps at the end of the history (``undo``: take them back, to the revision a start
    migrates to), under the migrations' lock; the database's revision after it.  Refused (``CommandError``) on a
    database a newer release migrated."""
    with _migration_lock(engine), engine.begin() as connection:
        config = _config_on(connection, location)
        history = History(config, connection)
        if history.ahead:
            raise CommandError(f"the database is at {', '.join(history.ahead)}, which this release does not know")
        if undo and history.past(history.start_target):
            command.downgrade(config, history.start_target)
            return history.start_target
        if not undo and history.behind(history.head):
            command.upgrade(config, "head")
            return history.head
        return history.current


def _config_on(connection: Connection, location: Path) -> Config:
    config = alembic_config(location)
    config.attributes["connection"] = connection
    return config


class History:
    """The migrations' one line of revisions and where a database stands on it."""

    def __init__(self, config: Config, connection: Connection) -> None:
        script = ScriptDirectory.from_config(config)
        self.line = [each.revision for each in reversed(list(script.walk_revisions("base", "heads")))]
        self.head = self.line[-1]
        contracts = {each.revision for each in script.walk_revisions() if getattr(each.module, "contract", False)}
        trailing = len(self.line)
        while trailing > 0 and self.line[trailing - 1] in contracts:
            trailing -= 1
        self.start_target = self.line[trailing - 1] if trailing else "base"  # the newest revision a start applies
        heads = MigrationContext.configure(connection).get_current_heads()
        self.ahead = [revision for revision in heads if revision not in self.line]
        self.current = heads[0] if len(heads) == 1 else None

    def behind(self, revision: str) -> bool:
        """The database is short of ``revision`` (an empty database is short of every one)."""
        if revision == "base":
            return False
        return self.current is None or self.line.index(self.current) < self.line.index(revision)

    def past(self, revision: str) -> bool:
        """The database is beyond ``revision``."""
        if self.current is None:
            return False
        return revision == "base" or self.line.index(self.current) > self.line.index(revision)


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


def main(argv: Sequence[str] | None = None) -> None:
    from services.api.config import load_config

    parser = argparse.ArgumentParser(description="Migrate the records database as a process's start does.")
    steps = parser.add_mutually_exclusive_group()
    steps.add_argument("--contract", action="store_true", help="also apply the contract steps (old release gone)")
    steps.add_argument("--undo-contract", action="store_true", help="take the contract steps back (before a rollback)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO)
    engine = make_engine(database_url(load_config()))
    steps = args.contract or args.undo_contract
    revision = contract(engine, undo=args.undo_contract) if steps else migrate(engine)
    log.info("records database at %s: %s", revision, engine.url.render_as_string(hide_password=True))


if __name__ == "__main__":
    main()
