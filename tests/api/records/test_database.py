"""The records database's migrations across two releases (services/api/records/database.py): a start applies the
expand steps and leaves the contract steps at the end of the history for ``--contract``, which ``--undo-contract``
takes back; a database a newer release migrated is left as it is, so an older release starts on it (a rollback).
A copy of the migrations with two more revisions plays the newer release: an expand (a nullable column, backfilled)
and a contract (the column NOT NULL)."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest
from alembic.migration import MigrationContext
from alembic.util.exc import CommandError
from sqlalchemy import Connection, Engine, inspect, text

from services.api.records.database import MIGRATIONS, History, _config_on, contract, make_engine, migrate

EXPAND = '''"""The next release's expand: ``game_records.rounds``, nullable, backfilled.

Revision ID: next_expand
Revises: {down}
"""

import sqlalchemy as sa
from alembic import op

revision = "next_expand"
down_revision = "{down}"


def upgrade() -> None:
    op.add_column("game_records", sa.Column("rounds", sa.Integer, nullable=True))
    op.execute("UPDATE game_records SET rounds = length(body)")


def downgrade() -> None:
    with op.batch_alter_table("game_records") as batch:
        batch.drop_column("rounds")
'''

CONTRACT = '''"""The next release's contract: ``game_records.rounds`` NOT NULL, the rows written meanwhile filled first.

Revision ID: next_contract
Revises: next_expand
"""

import sqlalchemy as sa
from alembic import op

revision = "next_contract"
down_revision = "next_expand"
contract = True


def upgrade() -> None:
    op.execute("UPDATE game_records SET rounds = length(body) WHERE rounds IS NULL")
    with op.batch_alter_table("game_records") as batch:
        batch.alter_column("rounds", existing_type=sa.Integer, nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("game_records") as batch:
        batch.alter_column("rounds", existing_type=sa.Integer, nullable=True)
'''

LATER = '''"""A release after the next: an index, which comes after the next release's contract.

Revision ID: later_expand
Revises: next_contract
"""

from alembic import op

revision = "later_expand"
down_revision = "next_contract"


def upgrade() -> None:
    op.create_index("game_records_rounds", "game_records", ["rounds"])


def downgrade() -> None:
    op.drop_index("game_records_rounds", "game_records")
'''


@pytest.fixture
def engine(empty_engine: Engine) -> Engine:
    """An engine on an empty database of each kind (conftest's ``empty_engine``)."""
    return empty_engine


def this_releases_head() -> str:
    with make_engine("sqlite://").connect() as connection:
        return History(_config_on(connection, MIGRATIONS), connection).head


def next_release(tmp_path: Path, *revisions: tuple[str, str]) -> Path:
    """A copy of this release's migrations with ``revisions`` (file name, text) added."""
    location = tmp_path / "next-migrations"
    shutil.copytree(MIGRATIONS, location, ignore=shutil.ignore_patterns("__pycache__"))
    head = this_releases_head()
    for name, body in revisions:
        (location / "versions" / name).write_text(body.replace("{down}", head), encoding="utf-8")
    return location


def revision_of(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def rounds_nullable(engine: Engine) -> bool | None:
    """Whether ``game_records.rounds`` takes NULL (None: no such column)."""
    columns = {c["name"]: c for c in inspect(engine).get_columns("game_records")}
    return columns["rounds"]["nullable"] if "rounds" in columns else None


def insert_record(engine: Engine, game_id: str) -> None:
    """A row as this release writes it: no ``rounds``."""
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO game_records (game_id, version, outcome, created_ms, ended_ms, recorded_ms, body)"
                " VALUES (:game_id, 1, 'finished', 1, 2, 3, '{}')"
            ),
            {"game_id": game_id},
        )


def test_a_start_applies_the_expand_and_leaves_the_contract_to_its_command(engine, tmp_path):
    new = next_release(tmp_path, ("next_expand.py", EXPAND), ("next_contract.py", CONTRACT))
    migrate(engine)
    insert_record(engine, "old-before")
    assert migrate(engine, location=new) == "next_expand"
    assert rounds_nullable(engine) is True  # the old release's writes still fit
    insert_record(engine, "old-during")
    assert migrate(engine, location=new) == "next_expand", "a second start changes nothing"
    assert contract(engine, location=new) == "next_contract"
    assert rounds_nullable(engine) is False
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM game_records WHERE rounds IS NULL")).scalar_one() == 0
    assert contract(engine, undo=True, location=new) == "next_expand"
    assert rounds_nullable(engine) is True
    assert contract(engine, undo=True, location=new) == "next_expand", "undone once is undone"


def test_a_release_starts_on_a_database_a_newer_one_migrated(engine, tmp_path, caplog):
    """The rollback: this release's start finds a revision it does not know, leaves the schema as it is (the newer
    release's expand keeps this code working) and still runs its upkeep."""
    new = next_release(tmp_path, ("next_expand.py", EXPAND), ("next_contract.py", CONTRACT))
    migrate(engine, location=new)
    ran: list[str] = []

    def upkeep(connection: Connection) -> None:
        ran.append(str(connection.execute(text("SELECT count(*) FROM game_records")).scalar_one()))

    with caplog.at_level(logging.WARNING, logger="services.api.records.database"):
        assert migrate(engine, [upkeep]) is None
    assert "which this release does not know" in caplog.text
    assert revision_of(engine) == "next_expand" and ran == ["0"]
    insert_record(engine, "written-after-the-rollback")
    with pytest.raises(CommandError):
        contract(engine)


def test_a_contract_step_that_newer_revisions_follow_is_applied_at_start(engine, tmp_path):
    """The release after the next: its old processes (the next release) already write the column."""
    later = next_release(
        tmp_path, ("next_expand.py", EXPAND), ("next_contract.py", CONTRACT), ("later_expand.py", LATER)
    )
    migrate(engine)
    assert migrate(engine, location=later) == "later_expand"
    assert rounds_nullable(engine) is False


def test_this_releases_own_history_has_no_contract_step_waiting():
    """A start of this release applies every migration it has (none waits for a command)."""
    with make_engine("sqlite://").connect() as connection:
        history = History(_config_on(connection, MIGRATIONS), connection)
    assert history.start_target == history.head
