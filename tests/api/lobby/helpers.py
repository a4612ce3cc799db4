"""What the lobby's unit tests share: a world of API processes over one in-memory backend, and its clock."""

from __future__ import annotations

from typing import Any

from services.api.games import commands
from services.api.games.commands import Collaborators
from services.api.games.quotas import NO_QUOTAS, Quotas
from services.api.games.record import GameRecord
from services.api.games.seat_players import AS_BOUND, Players
from services.api.http import request_schemas
from services.api.lobby.matchmaker import Matchmaker, MatchSettings
from services.api.lobby.tables import ListingHooks
from services.api.store.memory_store import MemoryBackend, MemoryStore

ONE_ROUND = {"preset": "partnership", "win_score": 1, "lose_score": -1}


class Clock:
    """A clock a test moves (Unix seconds)."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def process(
    backend: MemoryBackend, clock: Clock, quotas: Quotas = NO_QUOTAS, players: Players = AS_BOUND
) -> Collaborators:
    """One API process's collaborators over ``backend`` (its own store, hence its own recent copies)."""
    store = MemoryStore(GameRecord.from_stored, backend, clock=clock)
    return Collaborators(store, quotas=quotas, tables=ListingHooks(store, 60.0, clock), players=players)


def matchmaker(ctx: Collaborators, clock: Clock, **settings: Any) -> Matchmaker:
    return Matchmaker(ctx, MatchSettings(**settings), None, clock)


def create(ctx: Collaborators, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    created = commands.create_game(ctx, request_schemas.CREATE_GAME_REQUEST.load({"seats": seats, **body}))
    assert created is not None
    return created
