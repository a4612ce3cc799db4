"""The timers in process memory (:class:`services.api.store.timers.Timers`), with Redis's semantics: the part of
:class:`services.api.store.memory_store.MemoryStore` for each game's deadline and the computer's turn sent for it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from services.api.store.timers import MOST_OUTAGES, Span

if TYPE_CHECKING:
    from services.api.store.memory_store import MemoryBackend


@dataclass
class BeatMemory:
    """What Redis holds of the heartbeat (``lua/timers/beat.lua``): the latest beat and the outages kept."""

    last: int | None = None
    outages: list[Span] = field(default_factory=list)


class MemoryTimers:
    """The timers of :class:`services.api.store.memory_store.MemoryStore` (its backend's ``deadlines`` and
    ``pending``, under its lock)."""

    backend: MemoryBackend

    def expect_turn(self, game_id: str, due: float, earlier: bool = False) -> None:
        with self.backend.changed:
            known = self.backend.deadlines.get(game_id)
            self.backend.deadlines[game_id] = min(due, known) if earlier and known is not None else due

    def record_turn(self, game_id: str, pending: dict[str, Any], due: float) -> None:
        with self.backend.changed:
            self.backend.pending[game_id] = dict(pending)
            self.backend.deadlines[game_id] = due

    def pending_turn(self, game_id: str) -> dict[str, Any] | None:
        with self.backend.changed:
            pending = self.backend.pending.get(game_id)
        return dict(pending) if pending is not None else None

    def due_turns(self, now: float, limit: int, since: float | None = None) -> list[str]:
        low = float("-inf") if since is None else since
        with self.backend.changed:
            due = sorted((when, game_id) for game_id, when in self.backend.deadlines.items() if low <= when <= now)
        return [game_id for _, game_id in due[:limit]]

    def claim_turn(self, game_id: str, now: float, lease_until: float) -> bool:
        with self.backend.changed:
            due = self.backend.deadlines.get(game_id)
            if due is None or due > now:
                return False
            self.backend.deadlines[game_id] = lease_until
            return True

    def release_turn(self, game_id: str, lease_until: float) -> None:
        with self.backend.changed:
            if self.backend.deadlines.get(game_id) == lease_until:
                del self.backend.deadlines[game_id]

    def beat(self, now_ms: int, outage_after_ms: int, keep_ms: int) -> tuple[bool, list[Span]]:
        with self.backend.changed:  # the script's steps, in its order
            beats = self.backend.beats
            last = beats.last
            recorded = last is not None and now_ms - last > outage_after_ms
            if last is not None and recorded:
                beats.outages.append((last, now_ms))
            if last is None or now_ms > last:
                beats.last = now_ms
            beats.outages = [s for s in beats.outages if s[1] >= now_ms - keep_ms][-MOST_OUTAGES:]
            return recorded, list(beats.outages)
