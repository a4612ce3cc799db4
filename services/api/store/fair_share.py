"""The store's part in fair share: each creator's games in play, and paused computer-only games.

:class:`FairShareStore` is the part of :class:`services.api.store.protocol.GameStore` that
:mod:`services.api.games.quotas` (creators' holds) and :mod:`services.api.ai_seats.pauses`
(watched and paused computer-only games) use; Redis implements it in
:mod:`services.api.store.redis_fair_share`, the memory store in
:class:`services.api.store.memory_store.MemoryStore`.

- **Holds**: a creator (a hashed id) holds the games it created that are still in play, each until
  the time it was given (its game's expiry at creation), so a game that expires unfinished frees its
  place without anyone releasing it.  The check and the add are one atomic step per creator; a
  creator's holds live together (one Redis Cluster slot per creator) and no step spans two creators.
- **Watched and paused**: a read of a computer-only game marks it watched for a while; an AI turn of
  a computer-only game that nobody watches is not sent but marks the game paused, and the next read
  takes that mark (exactly one reader does) and sends the turn.  Both steps are atomic on the game's
  slot, so a read and a pause can't miss each other: either the pause sees the read's mark, or the
  read takes the pause's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

GAMES = "games"  # a refusal by the limit on games in play
COMPUTER_GAMES = "computer_games"  # a refusal by the limit on computer-only games in play


class FairShareStore(Protocol):
    def hold_game(
        self, creator: str, game_id: str, computer_only: bool, limits: tuple[int, int], now: float, until: float
    ) -> str | None:
        """Count ``game_id`` among ``creator``'s games in play (and its computer-only games, when it is one)
        until ``until`` at most, if that keeps them within ``limits`` — (games in play, computer-only games),
        0 for no limit — after dropping holds that ended before ``now``.  None when held; else the limit
        that refused it (:data:`GAMES` or :data:`COMPUTER_GAMES`), and nothing is held."""

    def release_game(self, creators: Sequence[str], game_id: str) -> None:
        """``game_id`` no longer counts for any of ``creators`` (it ended, or its creation failed)."""

    def watch(self, game_id: str, seconds: float) -> bool:
        """Someone reads the game: it counts as watched for ``seconds``.  True when this read took the game's
        paused mark (:meth:`pause_unless_watched`): the caller sends the turn the game waits for."""

    def pause_unless_watched(self, game_id: str) -> bool:
        """True when the game is watched (its AI turn may be sent); else the game is marked paused, for the
        next :meth:`watch` to take, and False."""
