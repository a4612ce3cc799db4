"""The records' migrations on SQLite (the embedded default) and PostgreSQL: from each revision to the newest,
existing rows kept (an abandoned game's record hidden until the writer finds its game gone; the players' names
keyed again by their UTS #39 skeletons), the schema then what ``records/schema.py`` says, and back down."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, select, text

from services.api.players import rekey
from services.api.players.names import KEY_RULES, display_name, name_key, shape_key
from services.api.players.rekey import rekey_if_stale
from services.api.players.repository import PlayerRepository
from services.api.problems import ApiError
from services.api.records.database import alembic_config, make_engine, migrate
from services.api.records.schema import metadata, name_key_rules
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


PLAYERS_AT_0005 = [  # id, kind, name, name_key as revision 0005 stored it (the name casefolded), created, deleted
    ("p_farmer", "person", "Farmer A", "farmer a", 1, None),
    ("p_farmer_cyrillic", "person", "Farmer \u0410", "farmer \u0430", 2, None),  # a look-alike, made back then
    ("p_heat", "person", "HEAT", "heat", 3, None),
    ("p_heat_cyrillic", "bot", "\u041d\u0415\u0410\u0422", "\u043d\u0435\u0430\u0442", 4, None),
    ("p_gone", "person", None, None, 5, 6),
    ("computer-hard", "computer", "hard", None, 0, None),
]


def stored_keys(engine: Engine) -> dict[str, tuple[str | None, ...]]:
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT * FROM players")).mappings().all()
    return {row["id"]: (row["name_key"], row.get("shape_key")) for row in rows}


def test_an_upgrade_keys_the_players_names_by_their_skeletons_and_the_older_of_two_look_alikes_keeps_a_key(
    empty_engine, caplog, monkeypatch
):
    migrate_to(empty_engine, "0005")
    with empty_engine.begin() as connection:
        for player_id, kind, name, key, created_ms, deleted_ms in PLAYERS_AT_0005:
            connection.execute(
                text(
                    "INSERT INTO players (id, kind, name, name_key, created_ms, deleted_ms)"
                    " VALUES (:id, :kind, :name, :key, :created_ms, :deleted_ms)"
                ),
                {"id": player_id, "kind": kind, "name": name, "key": key, "created_ms": created_ms}
                | {"deleted_ms": deleted_ms},
            )
    with caplog.at_level(logging.WARNING, logger="services.api.players.rekey"):
        migrate(empty_engine, (rekey_if_stale,))  # what every API process does at start: the migrations, then the keys
    keys = stored_keys(empty_engine)
    assert keys["p_farmer"] == (name_key("Farmer A"), shape_key("Farmer A"))
    assert keys["p_farmer_cyrillic"] == (None, None)  # both its keys are the older player's: the name stays
    assert keys["p_heat"] == (name_key("HEAT"), shape_key("HEAT"))
    assert keys["p_heat_cyrillic"] == (name_key("\u041d\u0415\u0410\u0422"), None)  # folds apart, draws alike
    assert keys["p_gone"] == keys["computer-hard"] == (None, None)
    assert "p_farmer_cyrillic, p_heat_cyrillic" in caplog.text
    with empty_engine.connect() as connection:
        assert connection.execute(select(name_key_rules.c.rules)).scalars().all() == [KEY_RULES]
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []
    repository = PlayerRepository(empty_engine)
    for look_alike in ("farmer a", "Farrner A", "\u041d\u0415\u0410\u0422", "heat"):
        with pytest.raises(ApiError, match="looks the same"):
            repository.create(display_name(look_alike), "person")

    with empty_engine.begin() as connection:
        assert not rekey_if_stale(connection)  # the next start: the keys are the running code's
    monkeypatch.setattr(rekey, "KEY_RULES", "a newer ICU")
    with empty_engine.begin() as connection:
        assert rekey_if_stale(connection)
    assert stored_keys(empty_engine) == keys

    migrate_to(empty_engine, "0005", down=True)  # the casefolded names again, for the code of then
    assert {player: key for player, (key, _) in stored_keys(empty_engine).items()} == {
        player_id: key for player_id, _, _, key, _, _ in PLAYERS_AT_0005
    }
