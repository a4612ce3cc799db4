"""The store's part in "your seats follow you": each player's games in play, an index beside the games.

:class:`PlayerIndex` is the part of :class:`services.api.store.protocol.GameStore` that
:mod:`services.api.games.live_games` uses; Redis implements it in :mod:`services.api.store.redis_player_index`,
the memory store in :mod:`services.api.store.memory_player_index`.

A player's entry names a game where a seat is (or was lately) bound to that player, scored by when it was noted
(Unix ms).  It is a hint, never the truth: the game's record says who holds its seats, so a reader checks each
game and forgets the entries of games over or gone.  Noting and forgetting are one step each on the player's own
entries (one Redis Cluster slot per player); no step spans two players or touches a game's keys.  A player keeps
at most :data:`MOST_GAMES` entries, the newest.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

MOST_GAMES = 50  # entries a player keeps: the newest noted


class PlayerIndex(Protocol):
    def note_player_game(self, player_id: str, game_id: str, now_ms: int) -> None:
        """``game_id`` is among ``player_id``'s games, noted at ``now_ms`` (again: its time moves); the oldest
        entries past :data:`MOST_GAMES` go, and the player's entries live on for the games' time."""

    def forget_player_games(self, player_id: str, game_ids: Collection[str]) -> None:
        """Those games are no longer among ``player_id``'s (each already gone: nothing)."""

    def player_games(self, player_id: str) -> list[str]:
        """``player_id``'s games, the most lately noted first; the entries live on for the games' time."""
