"""Each player's games in play in process memory (:class:`services.api.store.player_index.PlayerIndex`), with
Redis's semantics: the part of :class:`services.api.store.memory_store.MemoryStore` for the player index.  What it
leaves out, as the rest of the memory store does: expiry."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from services.api.store.player_index import MOST_GAMES

if TYPE_CHECKING:
    from services.api.store.memory_store import MemoryBackend


class MemoryPlayerIndex:
    """The player-index operations of :class:`services.api.store.memory_store.MemoryStore`."""

    backend: MemoryBackend

    def note_player_game(self, player_id: str, game_id: str, now_ms: int) -> None:
        with self.backend.changed:
            games = self.backend.player_games.setdefault(player_id, {})
            games[game_id] = now_ms
            for old in _newest_first(games)[MOST_GAMES:]:
                del games[old]

    def forget_player_games(self, player_id: str, game_ids: Collection[str]) -> None:
        with self.backend.changed:
            games = self.backend.player_games.get(player_id, {})
            for game_id in game_ids:
                games.pop(game_id, None)
            if not games:
                self.backend.player_games.pop(player_id, None)

    def player_games(self, player_id: str) -> list[str]:
        with self.backend.changed:
            return _newest_first(self.backend.player_games.get(player_id, {}))


def _newest_first(games: dict[str, int]) -> list[str]:
    """By score, then by id, both descending: Redis's ``ZRANGE … REV`` order."""
    return sorted(games, key=lambda game_id: (games[game_id], game_id), reverse=True)
