"""Ratings fixtures: a migrated records database of each kind, players in it, and finished games' record
documents with their seats bound to players."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from sqlalchemy import Engine, func, select

from services.api.games.record import GameOptions, GameRecord, Seat
from services.api.ratings.watch import holds
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
from services.ratings.model import Rating, ordinal
from services.ratings.provisional import off_board, provisional
from testkit.postgres import throwaway_database

from ..records.conftest import played

NOW = 1_796_000_000_000
STRANGERS = {"public": True, "clock": "normal"}  # options of a game made for strangers under a clock
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
        document["fair_play"] = {"counts": True, "reason": None, "forfeits": [], "timed_out": [], "aborted_by": None}
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
    """Each rating's stored flag is the provisional rule's (off the board while its player is held by the
    fair-play watch), and each bucket counts exactly the rating rows that are not provisional whose score falls
    in it (and no other bucket counts any)."""
    with engine.connect() as connection:
        expected: dict[tuple, int] = {}
        held = holds(connection)
        for row in connection.execute(select(player_ratings)):
            if bool(row.provisional) != off_board(Rating(row.mu, row.sigma), row.games, row.player_id in held):
                return False
            if not row.provisional:
                key = (row.board, row.kind, bucket_of(row.score))
                expected[key] = expected.get(key, 0) + 1
        stored = {(r.board, r.kind, r.bucket): r.players for r in connection.execute(select(rating_buckets))}
    return {k: v for k, v in stored.items() if v} == expected


def seasoned(engine: Engine, player: str, board: str, kind: str, games: int, mu: float = 25.0, sigma: float = 2.0):
    """A rating row of ``games`` rated games for ``player`` (its ``players`` row made if missing, a computer level's
    as the apply makes it), its flag by the rule and its bucket counted when it is on the board."""
    rating = Rating(mu, sigma)
    flag = provisional(rating, games)
    score = ordinal(rating)
    with engine.begin() as connection:
        if connection.execute(select(players.c.id).where(players.c.id == player)).first() is None:
            name_key = None if kind == "computer" else player
            row = {"id": player, "kind": kind, "name": player.removeprefix("computer-"), "name_key": name_key}
            connection.execute(players.insert().values(**row, created_ms=NOW))
        connection.execute(
            player_ratings.insert().values(player_id=player, board=board, kind=kind, mu=mu, sigma=sigma, score=score,
                                           games=games, provisional=flag, updated_ms=NOW)
        )  # fmt: skip
        if not flag:
            key = {"board": board, "kind": kind, "bucket": bucket_of(score)}
            found = connection.execute(select(rating_buckets.c.players).filter_by(**key)).scalar()
            if found is None:
                connection.execute(rating_buckets.insert().values(**key, players=1))
            else:
                connection.execute(rating_buckets.update().filter_by(**key).values(players=found + 1))


def rows(engine: Engine, table: Any, **where: Any) -> list[dict[str, Any]]:
    """A table's rows (those matching ``where``), as dicts."""
    query = select(table).where(*(table.c[k] == v for k, v in where.items()))
    with engine.connect() as connection:
        return [row._asdict() for row in connection.execute(query)]
