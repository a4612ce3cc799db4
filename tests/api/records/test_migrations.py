"""The records' migrations on SQLite (the embedded default) and PostgreSQL: from each revision to the newest,
existing rows kept (an abandoned game's record hidden until the writer finds its game gone; the players' names
keyed again by their UTS #39 skeletons; provisional ratings flagged and off the buckets, rated games numbered;
each player game's final scores from its record),
the schema then what ``records/schema.py`` says, and back down."""

from __future__ import annotations

import json
import logging

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
from services.api.ratings.recount import recount_if_stale
from services.api.records.database import alembic_config, migrate
from services.api.records.schema import metadata, name_key_rules
from services.ratings.buckets import bucket_of


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


RATINGS_AT_0006 = [  # player, board, kind, mu, sigma, games: the boards counted every rating then
    ("p_new", "partnership", "person", 30.0, 6.5, 3),
    ("p_sure", "partnership", "person", 26.0, 2.0, 45),
    ("p_unsure", "individual", "person", 29.0, 4.5, 90),
    ("computer-hard", "partnership", "computer", 41.0, 1.2, 1200),
]
GAMES_AT_0006 = [  # player, game, ended, rated
    ("p_new", "g1", 10, True),
    ("p_new", "g3", 30, True),
    ("p_new", "g2", 20, False),
    ("p_new", "g4", 30, True),  # ended with g3: the id orders them
    ("p_sure", "g1", 10, True),
]


def test_an_upgrade_flags_provisional_ratings_numbers_the_rated_games_and_counts_only_the_others(empty_engine):
    migrate_to(empty_engine, "0006")
    with empty_engine.begin() as connection:
        for player_id, board, kind, mu, sigma, games in RATINGS_AT_0006:
            connection.execute(
                text("INSERT INTO players (id, kind, name, created_ms) VALUES (:id, :kind, :id, 1)"),
                {"id": player_id, "kind": kind},
            )
            connection.execute(
                text(
                    "INSERT INTO player_ratings (player_id, board, kind, mu, sigma, score, games, updated_ms)"
                    " VALUES (:id, :board, :kind, :mu, :sigma, :score, :games, 1)"
                ),
                {"id": player_id, "board": board, "kind": kind, "mu": mu, "sigma": sigma}
                | {"score": mu - 3 * sigma, "games": games},
            )
            connection.execute(
                text("INSERT INTO rating_buckets (board, kind, bucket, players) VALUES (:board, :kind, :bucket, 1)"),
                {"board": board, "kind": kind, "bucket": bucket_of(mu - 3 * sigma)},
            )
        for player_id, game_id, ended_ms, rated in GAMES_AT_0006:
            connection.execute(
                text(
                    "INSERT INTO player_games (player_id, game_id, seat, ended_ms, won, board, rated)"
                    " VALUES (:id, :game, 0, :ended, true, 'partnership', :rated)"
                ),
                {"id": player_id, "game": game_id, "ended": ended_ms, "rated": rated},
            )
    migrate(empty_engine, (rekey_if_stale, recount_if_stale))  # what every API process does at start
    with empty_engine.connect() as connection:
        flags = dict(connection.execute(text("SELECT player_id, provisional FROM player_ratings")).all())
        buckets = connection.execute(text("SELECT board, kind, bucket, players FROM rating_buckets")).all()
        numbered = dict(
            connection.execute(text("SELECT player_id || ' ' || game_id, games_after FROM player_games")).all()
        )
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []
    assert {player: bool(flag) for player, flag in flags.items()} == {
        "p_new": True,  # three games
        "p_sure": False,
        "p_unsure": True,  # 90 games, sigma 4.5
        "computer-hard": False,
    }
    assert sorted(tuple(row) for row in buckets) == [
        ("partnership", "computer", bucket_of(41.0 - 3 * 1.2), 1),
        ("partnership", "person", bucket_of(26.0 - 3 * 2.0), 1),
    ]
    assert numbered == {"p_new g1": 1, "p_new g2": None, "p_new g3": 2, "p_new g4": 3, "p_sure g1": 1}

    migrate_to(empty_engine, "0006", down=True)  # every rating counted again, for the code of then
    with empty_engine.connect() as connection:
        buckets = connection.execute(text("SELECT players FROM rating_buckets")).scalars().all()
    assert sum(buckets) == len(RATINGS_AT_0006)


def test_an_upgrade_keeps_each_player_games_final_scores_from_the_records_still_kept(empty_engine):
    migrate_to(empty_engine, "0014")
    bodies = {"g1": [-130, 44], "g2": [520, 310], "g3": [210, -40, 90, 505]}  # g4's record is gone
    with empty_engine.begin() as connection:
        for player_id in ("p_a", "p_b"):
            connection.execute(
                text("INSERT INTO players (id, kind, name, created_ms) VALUES (:id, 'person', :id, 1)"),
                {"id": player_id},
            )
        for game_id, scores in bodies.items():
            body = json.dumps({"game_id": game_id, "result": {"winner": [1], "scores": scores, "bags": [0] * 4}})
            connection.execute(
                text(
                    "INSERT INTO game_records (game_id, version, outcome, created_ms, ended_ms, recorded_ms, body)"
                    " VALUES (:game_id, 1, 'finished', 1, 2, 3, :body)"
                ),
                {"game_id": game_id, "body": body},
            )
        for player_id, game_id in (("p_a", "g1"), ("p_b", "g1"), ("p_a", "g2"), ("p_b", "g3"), ("p_a", "g4")):
            connection.execute(
                text(
                    "INSERT INTO player_games (player_id, game_id, seat, ended_ms, won, board, rated)"
                    " VALUES (:id, :game, 0, 2, false, 'partnership', false)"
                ),
                {"id": player_id, "game": game_id},
            )
    migrate_to(empty_engine, "head")
    with empty_engine.connect() as connection:
        kept = connection.execute(text("SELECT player_id, game_id, scores FROM player_games")).all()
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []
    assert {(player, game): scores and json.loads(scores) for player, game, scores in kept} == {
        ("p_a", "g1"): [-130, 44],
        ("p_b", "g1"): [-130, 44],
        ("p_a", "g2"): [520, 310],
        ("p_b", "g3"): [210, -40, 90, 505],
        ("p_a", "g4"): None,
    }
    migrate_to(empty_engine, "0014", down=True)
    with empty_engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM player_games")).scalar_one() == 5
