"""Ratings fixtures: a migrated records database of each kind, players in it, and finished games' record
documents with their seats bound to players."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from sqlalchemy import Engine, func, select

from services.api.games.record import GameOptions, GameRecord, Seat
from services.api.records.content import build
from services.api.records.database import make_engine, migrate
from services.api.records.schema import (
    game_ratings,
    player_games,
    player_ratings,
    player_stats,
    players,
    rating_buckets,
)
from services.engine import make_rules, new_game
from services.ratings.buckets import bucket_of
from testkit.postgres import throwaway_database

from ..records.conftest import played

NOW = 1_796_000_000_000
TABLES = (players, player_ratings, rating_buckets, player_stats, player_games, game_ratings)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.integration)])
def engine(request, tmp_path) -> Iterator[Engine]:
    """A migrated records database: SQLite, and PostgreSQL (a throwaway database)."""
    if request.param == "postgresql":
        yield request.getfixturevalue("postgres_engine")
        return
    found = make_engine(f"sqlite:///{tmp_path}/records.sqlite3")
    migrate(found)
    yield found
    found.dispose()


@pytest.fixture
def postgres_engine() -> Iterator[Engine]:
    """A migrated throwaway PostgreSQL database."""
    with throwaway_database() as url:
        found = make_engine(url.replace("postgresql://", "postgresql+psycopg://"), pool_size=8)
        migrate(found)
        yield found
        found.dispose()


def add_players(engine: Engine, *ids: str, kind: str = "person") -> None:
    with engine.begin() as connection:
        for player in ids:
            row = {"id": player, "kind": kind, "name": player, "name_key": player, "created_ms": NOW}
            connection.execute(players.insert().values(row))


def finished(
    game_id: str,
    seats: Sequence[str],
    options: dict[str, Any] | None = None,
    seed: int = 7,
    preset: str = "partnership",
) -> dict[str, Any]:
    """A finished game's record document; ``seats`` each a player id (``p_…``), a level (``ai:hard``) or
    ``human`` (an unbound person)."""
    state = played(new_game(make_rules(preset, win_score=100), seed), random.Random(seed))
    stored = [Seat("ai", who[3:]) if who.startswith("ai:") else Seat("human", None, f"hash-{i}") for i, who in
              enumerate(seats)]  # fmt: skip
    record = GameRecord(
        game_id, 40, stored, "", GameOptions.from_json({"hints": True, **(options or {})}), started=True
    )
    record.created_ms, record.changed_ms = NOW, NOW + 600_000
    document = build(record.with_state(state))
    for seat, who in zip(document["seats"], seats, strict=True):
        if who.startswith("p_"):
            seat["player_id"] = who
    opts = options or {}
    alone = sum(not who.startswith("ai:") for who in seats) == 1
    if alone or ((opts.get("public") or opts.get("matched")) and opts.get("clock", "none") != "none"):
        # made to count as the service would make it (services.ratings.policy.may_count; short for speed)
        document["fair_play"] = {"counts": True, "reason": None, "forfeits": []}
    return document


def counts(engine: Engine) -> dict[str, int]:
    """Rows in each ratings table."""
    with engine.connect() as connection:
        return {t.name: connection.execute(select(func.count()).select_from(t)).scalar_one() for t in TABLES}


def snapshot(engine: Engine) -> dict[str, list[tuple]]:
    """Every row of the ratings tables (updated times left out), sorted."""
    with engine.connect() as connection:
        return {
            t.name: sorted(
                tuple(v for k, v in row._mapping.items() if k not in ("updated_ms", "applied_ms"))
                for row in connection.execute(select(t))
            )
            for t in TABLES
        }


def buckets_agree(engine: Engine) -> bool:
    """Each bucket counts exactly the rating rows whose score falls in it (and no other bucket counts any)."""
    with engine.connect() as connection:
        expected: dict[tuple, int] = {}
        for row in connection.execute(select(player_ratings)):
            key = (row.board, row.kind, bucket_of(row.score))
            expected[key] = expected.get(key, 0) + 1
        stored = {(r.board, r.kind, r.bucket): r.players for r in connection.execute(select(rating_buckets))}
    return {k: v for k, v in stored.items() if v} == expected
