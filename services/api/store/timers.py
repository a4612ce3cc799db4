"""The store's timers: each game's one deadline, and the computer's turn sent for it.

A game has at most one thing to wake up for at a time — a computer's turn (sent to a worker, or due to be sent),
a person's turn clock running out, a rematch's wait ending — so the store keeps one deadline per game.
:class:`Timers` is the part of :class:`services.api.store.protocol.GameStore` that the AI seats' driver
(:mod:`services.api.ai_seats.driver`, its sweeper and dispatch), the turn clocks' hooks and the rematch read and
write; Redis implements it in :mod:`services.api.store.redis_timers` (sharded sets, so a sweep reads every shard in
one call and a claim is one ``ZREM``), the memory store in :mod:`services.api.store.memory_timers`.

A due deadline is claimed by exactly one caller across processes (:meth:`Timers.claim_turn`): the one that acts on
it.  The claim is a lease, not a removal: the deadline moves to the lease's end, so if the claimer dies before it
acts (its process killed between the claim and the move, the turn sent or the deadline set again), another
process's sweep claims it when the lease runs out and the game never waits forever; the claimer that acted gives
the lease back (:meth:`Timers.release_turn`), which takes the deadline off only if nothing set a new one meanwhile.
Not a separate Redis: the timers must fail over with the games they wake.

The timers also keep the service's heartbeat (:meth:`Timers.beat`), which says when a person's deadline may be acted
on: every API process beats (:mod:`services.api.games.service_beat`), and a beat later than the last one by more
than the outage bound says no process could reach the store meanwhile, so no person's move could be taken.  That
gap is recorded as an outage, once, by the beat that finds it, and every beat answers the outages kept (the clocks
give them back: :func:`services.api.games.clocks.credited`).  The check and the record are one atomic step on one
slot: two processes coming back together record the gap once, and any beat after it sees it.
"""

from __future__ import annotations

from typing import Any, Protocol

#: (start, end) of an outage, Unix ms: the last beat before it and the first after it.
Span = tuple[int, int]
MOST_OUTAGES = 100  # outages kept at most: a flapping service drops its oldest first


class Timers(Protocol):
    def expect_turn(self, game_id: str, due: float, earlier: bool = False) -> None:
        """Set the game's deadline to ``due`` (an AI turn to send, a person's clock, a rematch's wait);
        ``earlier``: only if that is sooner than the one set (a change that may lose its race)."""

    def record_turn(self, game_id: str, pending: dict[str, Any], due: float) -> None:
        """A computer's turn sent (``pending``: task_id, version, seat, level, sent_at, attempts), its
        deadline ``due``: when its answer is overdue."""

    def pending_turn(self, game_id: str) -> dict[str, Any] | None:
        """The computer's turn last sent for the game, if any (``record_turn``'s ``pending``)."""

    def due_turns(self, now: float, limit: int, since: float | None = None) -> list[str]:
        """Ids of games whose deadline is at or before ``now`` (and at or after ``since``), most overdue first, at
        most ``limit``."""

    def claim_turn(self, game_id: str, now: float, lease_until: float) -> bool:
        """Claim the game's deadline if it is due at ``now``: it moves to ``lease_until`` (see the module doc); True
        for exactly one caller across processes until the lease runs out."""

    def release_turn(self, game_id: str, lease_until: float) -> None:
        """Give a claim's lease back: the game's deadline taken off the timers if it is still ``lease_until``."""

    def beat(self, now_ms: int, outage_after_ms: int, keep_ms: int) -> tuple[bool, list[Span]]:
        """The service takes moves at ``now_ms``: recorded, after recording the gap since the last beat as an
        outage when it is longer than ``outage_after_ms``.  Whether this beat recorded one, and the outages that
        ended within ``keep_ms``, oldest first (at most :data:`MOST_OUTAGES`)."""
