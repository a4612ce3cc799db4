"""The store's part in arenas: per arena, its entrants (each a document the store never reads), the standings
(entrant id → score, ranked highest first, ties by id), the pool (waiting entrant id → arrival order) and the
games in play (game id → a document), with one version for all four.  Every change is a batch written only over
the version it was read at (a compare-and-set), so a read of version *v* followed by reads of the rest saw one
consistent arena if the write over *v* succeeds.  The memory twin is here; Redis is
:mod:`services.api.store.redis_arena_rooms`.  :mod:`services.api.events.arena_room` reads and changes them."""

from __future__ import annotations

import bisect
import threading
from dataclasses import dataclass, field
from typing import Protocol


@dataclass
class ArenaBatch:
    """One change to an arena: documents put, standings scores put, ids put in (by arrival) or taken out of the
    pool, games put or taken out."""

    entrants: dict[str, bytes] = field(default_factory=dict)
    standings: dict[str, int] = field(default_factory=dict)
    pool_add: dict[str, int] = field(default_factory=dict)
    pool_remove: list[str] = field(default_factory=list)
    games_add: dict[str, bytes] = field(default_factory=dict)
    games_remove: list[str] = field(default_factory=list)


class ArenaRooms(Protocol):
    def arena_version(self, event_id: str) -> int:
        """The arena's version (0: nothing written yet)."""

    def arena_entrants(self, event_id: str, ids: list[str]) -> list[bytes | None]:
        """The named entrants' documents, in order (None: not in the arena)."""

    def arena_pool(self, event_id: str) -> list[str]:
        """The waiting entrants' ids, the longest waiting first."""

    def arena_games(self, event_id: str, limit: int) -> list[tuple[str, bytes]]:
        """Up to ``limit`` games in play, the longest in play first (by when they were put in)."""

    def arena_waiting(self, event_id: str) -> int:
        """How many entrants the pool holds."""

    def arena_game(self, event_id: str, game_id: str) -> bytes | None:
        """A game in play's document, or None (not the arena's, or scored)."""

    def arena_games_count(self, event_id: str) -> int:
        """How many games are in play."""

    def arena_standings(self, event_id: str, start: int, count: int) -> list[tuple[str, int]]:
        """``count`` entrants from place ``start`` (0: the first), each with its score."""

    def arena_rank(self, event_id: str, entrant_id: str) -> int | None:
        """The entrant's place (0: the first): how many stand strictly above it, so tied entrants share one; None
        when it is not in the standings."""

    def arena_above(self, event_id: str, score: int) -> int:
        """How many entrants' scores are strictly above ``score``."""

    def arena_size(self, event_id: str) -> int:
        """How many entrants the standings hold."""

    def write_arena(self, event_id: str, read_at: int, batch: ArenaBatch) -> bool:
        """Apply ``batch`` as version ``read_at + 1`` over version ``read_at``; False when the version is another."""


@dataclass
class _Arena:
    version: int = 0
    entrants: dict[str, bytes] = field(default_factory=dict)
    scores: dict[str, int] = field(default_factory=dict)
    order: list[tuple[int, str]] = field(default_factory=list)  # (−score, id): a sorted set's order
    pool: dict[str, int] = field(default_factory=dict)
    games: dict[str, tuple[int, bytes]] = field(default_factory=dict)  # id -> (put in at, document)
    puts: int = 0


class MemoryArenaRooms:
    def __init__(self) -> None:
        self._arenas: dict[str, _Arena] = {}
        self._lock = threading.Lock()

    def _arena(self, event_id: str) -> _Arena:
        return self._arenas.get(event_id) or _Arena()

    def arena_version(self, event_id: str) -> int:
        return self._arena(event_id).version

    def arena_entrants(self, event_id: str, ids: list[str]) -> list[bytes | None]:
        arena = self._arena(event_id)
        return [arena.entrants.get(i) for i in ids]

    def arena_pool(self, event_id: str) -> list[str]:
        pool = self._arena(event_id).pool
        return sorted(pool, key=lambda i: (pool[i], i))

    def arena_games(self, event_id: str, limit: int) -> list[tuple[str, bytes]]:
        games = self._arena(event_id).games
        return [(i, games[i][1]) for i in sorted(games, key=lambda i: (games[i][0], i))[:limit]]

    def arena_waiting(self, event_id: str) -> int:
        return len(self._arena(event_id).pool)

    def arena_game(self, event_id: str, game_id: str) -> bytes | None:
        found = self._arena(event_id).games.get(game_id)
        return None if found is None else found[1]

    def arena_games_count(self, event_id: str) -> int:
        return len(self._arena(event_id).games)

    def arena_standings(self, event_id: str, start: int, count: int) -> list[tuple[str, int]]:
        return [(i, -score) for score, i in self._arena(event_id).order[start : start + count]]

    def arena_rank(self, event_id: str, entrant_id: str) -> int | None:
        score = self._arena(event_id).scores.get(entrant_id)
        return None if score is None else self.arena_above(event_id, score)

    def arena_above(self, event_id: str, score: int) -> int:
        return bisect.bisect_left(self._arena(event_id).order, (-score,))  # (-score,) sorts before (-score, any id)

    def arena_size(self, event_id: str) -> int:
        return len(self._arena(event_id).order)

    def write_arena(self, event_id: str, read_at: int, batch: ArenaBatch) -> bool:
        with self._lock:
            arena = self._arenas.setdefault(event_id, _Arena())
            if arena.version != read_at:
                return False
            arena.version += 1
            arena.entrants.update(batch.entrants)
            for entrant_id, score in batch.standings.items():
                old = arena.scores.pop(entrant_id, None)
                if old is not None:
                    arena.order.remove((-old, entrant_id))
                arena.scores[entrant_id] = score
                bisect.insort(arena.order, (-score, entrant_id))
            for entrant_id in batch.pool_remove:
                arena.pool.pop(entrant_id, None)
            arena.pool.update(batch.pool_add)
            for game_id in batch.games_remove:
                arena.games.pop(game_id, None)
            for game_id, doc in batch.games_add.items():
                arena.puts += 1
                arena.games[game_id] = (arena.puts, doc)
            return True
