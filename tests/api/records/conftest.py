"""Records fixtures: a played-out game's stored record (no Redis), and both databases."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine

from services.api.games.record import GameOptions, GameRecord, Seat
from services.api.records.database import make_engine, migrate
from services.engine import GameState, apply, legal_moves, make_rules, new_game, turn
from testkit.postgres import throwaway_database


def played(state: GameState, rng: random.Random, until_over: bool = True, moves: int = 0) -> GameState:
    """``state`` played on with random legal moves: to the game's end, or ``moves`` moves."""
    done = 0
    while state.phase != "game_over" and (until_over or done < moves):
        seat = turn(state)
        assert seat is not None
        state = apply(state, seat, rng.choice(legal_moves(state, seat)))
        done += 1
    return state


def stored_game(game_id: str = "g-finished", seed: int = 7, over: bool = True, moves: int = 30) -> GameRecord:
    """A game as the store holds it: two people (with token hashes), two computers; finished, or ``moves``
    moves into its first round."""
    state = played(new_game(make_rules("partnership", win_score=100), seed), random.Random(seed), over, moves)
    seats = [Seat("human", None, "hash-0"), Seat("ai", "hard"), Seat("human", None, "hash-2"), Seat("ai", "easy")]
    record = GameRecord(
        game_id, 40, seats, "", GameOptions.from_json({"hints": True, "ai_takeover": "standard"}), started=True
    )
    record.created_ms, record.changed_ms = 1_796_000_000_000, 1_796_000_600_000
    return record.with_state(state)


@pytest.fixture
def sqlite_engine(tmp_path) -> Iterator[Engine]:
    engine = make_engine(f"sqlite:///{tmp_path}/records.sqlite3")
    migrate(engine)
    yield engine
    engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.integration)])
def empty_engine(request, tmp_path) -> Iterator[Engine]:
    """An engine on an empty database of each kind (the migrations' and the database module's tests)."""
    if request.param == "sqlite":
        engine = make_engine(f"sqlite:///{tmp_path}/records.sqlite3")
        yield engine
        engine.dispose()
        return
    with throwaway_database() as url:
        engine = make_engine(url.replace("postgresql://", "postgresql+psycopg://"))
        yield engine
        engine.dispose()
