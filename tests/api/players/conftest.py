"""Players fixtures: a migrated records database of each kind (SQLite in the test's directory; PostgreSQL, a
throwaway database, for the integration run)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine

from services.api.records.database import make_engine, migrate
from testkit.postgres import throwaway_database


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.integration)])
def engine(request, tmp_path) -> Iterator[Engine]:
    """A records database at the newest migration, of each kind."""
    if request.param == "sqlite":
        made = make_engine(f"sqlite:///{tmp_path}/records.sqlite3")
        migrate(made)
        yield made
        made.dispose()
        return
    with throwaway_database() as url:
        made = make_engine(url.replace("postgresql://", "postgresql+psycopg://"), pool_size=4)
        migrate(made)
        yield made
        made.dispose()
