"""The store's timers: each game's one deadline, and the computer's turn sent for it.

A game has at most one thing to wake up for at a time — a computer's turn (sent to a worker, or due to be sent),
a person's turn clock running out, a rematch's wait ending — so the store keeps one deadline per game.
:class:`Timers` is the part of :class:`services.api.store.protocol.GameStore` that the AI seats' driver
(:mod:`services.api.ai_seats.driver`, its sweeper and dispatch), the turn clocks' hooks and the rematch read and
write; Redis implements it in :mod:`services.api.store.redis_timers` (sharded sets, so a sweep reads every shard in
one call and a claim is one ``ZREM``), the memory store in :mod:`services.api.store.memory_timers`.

A deadline is claimed by exactly one caller across processes (:meth:`Timers.claim_turn`): the one that acts on
it. Not a separate Redis: the timers must fail over with the games they wake.
"""

from __future__ import annotations

from typing import Any, Protocol


class Timers(Protocol):
    def expect_turn(self, game_id: str, due: float, earlier: bool = False) -> None:
        """Set the game's deadline to ``due`` (an AI turn to send, a person's clock, a rematch's wait);
        ``earlier``: only if that is sooner than the one set (a change that may lose its race)."""

    def record_turn(self, game_id: str, pending: dict[str, Any], due: float) -> None:
        """A computer's turn sent (``pending``: task_id, version, seat, level, sent_at, attempts), its
        deadline ``due``: when its answer is overdue."""

    def pending_turn(self, game_id: str) -> dict[str, Any] | None:
        """The computer's turn last sent for the game, if any (``record_turn``'s ``pending``)."""

    def due_turns(self, now: float, limit: int) -> list[str]:
        """Ids of games whose deadline is at or before ``now``, most overdue first, at most ``limit``."""

    def claim_turn(self, game_id: str) -> bool:
        """Take the game's deadline off the timers; True for exactly one caller across processes."""
