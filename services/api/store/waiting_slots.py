"""The store's part in capping waiting requests: each client's slots among the waiting long polls and streams.

:class:`WaitingSlots` is the part of :class:`services.api.store.protocol.GameStore` that
:mod:`services.api.live.waiting_caps` uses; Redis implements it in
:mod:`services.api.store.redis_waiting_slots`, the memory store in
:class:`services.api.store.memory_store.MemoryStore`.

A *holder* (a hashed client address or seat token) has a set of *slots*, one per request of its that is
waiting now, each held until a lease's end that its holder pushes ahead while it waits.  A slot whose
holder died (a killed process) is not released, so it lapses at its lease's end: nothing counts a slot
past it.  Taking a slot checks the holder's cap and adds the slot in one atomic step per holder; a
holder's slots live together (one Redis Cluster slot per holder) and no step spans two holders.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

Capped = tuple[str, int]  # (holder, the most slots it may hold at once)


class WaitingSlots(Protocol):
    def take_waiting(self, holders: Sequence[Capped], slot: str, now: float, until: float) -> str | None:
        """Hold ``slot`` for each holder until ``until``, if each holds fewer than its cap after dropping the
        slots whose lease ended before ``now``.  None when every holder holds it; else the first holder whose
        cap refused it, and no holder holds it."""

    def renew_waiting(self, holders: Sequence[str], slot: str, now: float, until: float) -> None:
        """The slot's request still waits (at ``now``): each holder holds it until ``until``, whatever its cap (held
        again if its lease had lapsed meanwhile)."""

    def release_waiting(self, holders: Sequence[str], slot: str) -> None:
        """The wait ended: ``slot`` no longer counts for any of ``holders``."""
