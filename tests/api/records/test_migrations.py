"""The records' migrations on SQLite (the embedded default) and PostgreSQL: from each revision to the newest,
existing rows kept (an abandoned game's record hidden until the writer finds its game gone), the schema then
what ``records/schema.py`` says, and back down."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, text

from services.api.records.database import alembic_config, make_engine
from services.api.records.schema import metadata
from testkit.postgres import throwaway_database


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.integration)])
def empty_engine(request, tmp_path) -> Iterator[Engine]:
    """An engine on an empty database of each kind."""
    if request.param == "sqlite":
        engine = make_engine(f"sqlite:///{tmp_path}/records.sqlite3")
        yield engine
        engine.dispose()
        return
    with throwaway_database() as url:
        engine = make_engine(url.replace("postgresql://", "postgresql+psycopg://"))
        yield engine
        engine.dispose()


def migrate_to(engine: Engine, revision: str, down: bool = False) -> None:
    with engine.begin() as connection:
        config = alembic_config()
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)


def test_hidden_records_arrive_with_abandoned_ones_hidden_and_the_schema_as_declared(empty_engine):
    migrate_to(empty_engine, "0001")
    with empty_engine.begin() as connection:
        for game_id, outcome in (("over", "finished"), ("left", "abandoned")):
            connection.execute(
                text(
                    "INSERT INTO game_records (game_id, version, outcome, created_ms, ended_ms, recorded_ms, body)"
                    " VALUES (:game_id, 1, :outcome, 1, 2, 3, '{}')"
                ),
                {"game_id": game_id, "outcome": outcome},
            )
    migrate_to(empty_engine, "head")
    with empty_engine.connect() as connection:
        rows = connection.execute(text("SELECT game_id, hidden FROM game_records ORDER BY game_id")).all()
        assert [(game_id, bool(hidden)) for game_id, hidden in rows] == [("left", True), ("over", False)]
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []
    migrate_to(empty_engine, "0001", down=True)
    with empty_engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM game_records")).scalar_one() == 2
    migrate_to(empty_engine, "head")
