"""The store's part in keeping every finished game: the outbox of records to write.

:class:`RecordOutbox` is the part of :class:`services.api.store.protocol.GameStore` that the commands
(:mod:`services.api.games.record_schedule`: an entry at creation and at game over) and the records writer
(:mod:`services.api.records.writer`) use; Redis implements it in :mod:`services.api.store.redis_record_outbox`,
the memory store in :class:`services.api.store.memory_store.MemoryStore`.

- **The outbox** holds each game's id, due when its record should next be looked at: at once for a game
  that just ended, shortly before its expiry for a game in play (an abandoned game is recorded before it
  goes).  A writer *claims* a due entry by pushing its due time a lease ahead, so exactly one writer works on
  it at a time, and one that dies leaves it to be claimed again when the lease ends.
- **Not expired before its record is written**: with records kept, the commit that ends a game takes its
  expiry off (:mod:`services.api.store.redis_commit`); :meth:`RecordOutbox.record_written` gives it back
  (``FINISHED_GAME_TTL_SECONDS``) once the record is in the database, and :meth:`RecordOutbox.keep_game`
  holds a game in play whose record could not be written.
- **An abandoned game ends before its record is shown**: :meth:`RecordOutbox.end_game` deletes every key of
  a game in play, at once and only if nobody changed it since the version recorded, so the records writer
  shows an abandoned game's record only once nobody can join or play it any more.
"""

from __future__ import annotations

from typing import Protocol


class RecordOutbox(Protocol):
    def schedule_record(self, game_id: str, due: float) -> None:
        """The game's record is next due at ``due`` (Unix seconds), replacing any earlier schedule."""

    def claim_records(self, now: float, lease: float, limit: int) -> list[str]:
        """Up to ``limit`` game ids due at ``now``, each claimed (its due time moved to ``now + lease``) by
        this caller only."""

    def record_done(self, game_id: str) -> None:
        """The game needs no record (any more): its entry goes."""

    def record_written(self, game_id: str, version: int) -> bool:
        """The record of the finished game at ``version`` is written: the game's keys expire
        ``FINISHED_GAME_TTL_SECONDS`` from now and its entry goes; False (nothing done) when the game is gone
        or changed since (its newer version is due again)."""

    def game_ttl(self, game_id: str) -> float | None:
        """Seconds until the game expires; None when it has no expiry (or no longer exists)."""

    def keep_game(self, game_id: str, seconds: float) -> None:
        """The game (all its keys) expires no sooner than ``seconds`` from now: its record is not written yet."""

    def end_game(self, game_id: str, version: int | None) -> bool:
        """Delete every key of the game at once if it is still at ``version`` (None: if it is gone, what is left
        of it); True when the game is gone now, False (nothing done) when it exists at another version: a
        move since wins.  Raises :class:`~services.api.store.protocol.NotReplicated` when the deletion is
        made but fewer replicas than required confirm it."""
