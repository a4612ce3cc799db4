"""Caps on one client's waiting requests (open streams, long polls), counted across every API process.

A waiting request costs a process little (a greenlet and a fan-out listener under gevent), but a client
that opens thousands takes a worker's connections (``API_WORKER_CONNECTIONS``; under gthread its threads)
from everyone else, and the rate limits do not see it: one request can wait for minutes.  So each
``GET /v1/games/{id}/stream``, each ``GET /v1/games/{id}/events`` with ``wait`` > 0, and each hint and round
review (they wait for a worker, up to ``HINT_TIMEOUT_SECONDS`` or ``REVIEW_TIMEOUT_SECONDS``) takes a *slot*
before it waits, for its client address (after the trusted proxies, ``PROXY_FIX_HOPS``) and for its seat
token if it carries one (``MAX_WAITING_PER_ADDRESS``, ``MAX_WAITING_PER_TOKEN``); past either cap it is
refused with ``429 too_many_waiting``.  The holders are the quotas' hashed creator ids
(:func:`services.api.games.quotas.creator_ids`): never an address or a token in clear.

The count lives in the store (:mod:`services.api.store.waiting_slots`), so it holds across processes and
pods.  A slot is held for a lease (``WAITING_LEASE_SECONDS``) that its request renews every third of it
while it waits; the wait's end releases it (the stream's close, whatever ended it: ``game_over``, its
lifetime, a dropped client, the process's drain).  A process that dies holding slots releases nothing:
each lapses at its lease's end.  Cost: one store call to take a slot and one to release it; a renewal only
for waits longer than a third of the lease (with the defaults, a stream's, never a long poll's).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType

from services.api.games.quotas import creator_ids
from services.api.metrics import WAITING_REFUSALS
from services.api.problems import ApiError
from services.api.store.protocol import GameStore

log = logging.getLogger(__name__)
RETRY_AFTER_SECONDS = 5  # a long poll ends within EVENTS_MAX_WAIT; a client that closes one may come back at once
RENEWALS_PER_LEASE = 3  # a waiting request renews its lease every third of it: two may be missed before it lapses
ADDRESS, TOKEN = "address", "token"


@dataclass(frozen=True, slots=True)
class WaitingCaps:
    """The most waiting requests per client address and per seat token (0: none), and the slots' lease."""

    per_address: int = 0  # MAX_WAITING_PER_ADDRESS
    per_token: int = 0  # MAX_WAITING_PER_TOKEN
    lease_seconds: float = 90.0  # WAITING_LEASE_SECONDS
    clock: Callable[[], float] = field(default=time.time, compare=False)  # leases are Unix times in the store

    @property
    def active(self) -> bool:
        return bool(self.per_address or self.per_token)

    @property
    def renew_seconds(self) -> float:
        """How often a waiting request renews its slot's lease."""
        return self.lease_seconds / RENEWALS_PER_LEASE


NO_CAPS = WaitingCaps()


class WaitingSlot:
    """One waiting request's place among its client's: renewed while it waits, released once (a context
    manager, or :meth:`release` from a response's close).  The slot of a request no cap applies to does
    nothing (``renew_seconds`` 0: never renewed)."""

    def __init__(self, store: GameStore | None, caps: WaitingCaps, holders: tuple[str, ...], slot: str) -> None:
        self.store, self.caps, self.holders, self.slot = store, caps, holders, slot
        self.renew_seconds = caps.renew_seconds if holders else 0.0
        self._released = not holders

    def renew(self) -> None:
        """Push the lease ahead (never raises: a missed renewal only lets the slot lapse early)."""
        if self._released or self.store is None:
            return
        now = self.caps.clock()
        try:
            self.store.renew_waiting(self.holders, self.slot, now, now + self.caps.lease_seconds)
        except Exception:
            log.warning("could not renew a waiting request's slot", exc_info=True)

    def release(self) -> None:
        """The wait ended: the slot counts no more.  Once only; never raises (the lease ends it anyway)."""
        if self._released or self.store is None:
            return
        self._released = True
        try:
            self.store.release_waiting(self.holders, self.slot)
        except Exception:
            log.warning("could not release a waiting request's slot", exc_info=True)

    def __enter__(self) -> WaitingSlot:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.release()


def take_slot(store: GameStore, caps: WaitingCaps, address: str | None, token: str | None) -> WaitingSlot:
    """A slot for a request about to wait, from ``address`` with seat ``token`` (None: a spectator), or the
    ``429 too_many_waiting`` of the first cap it would break (holding nothing then)."""
    if not caps.active:
        return WaitingSlot(None, caps, (), "")
    capped = []  # (holder, its cap, which kind of holder)
    if caps.per_address and address:
        capped.append((creator_ids(address, None)[0], caps.per_address, ADDRESS))
    if caps.per_token and token:
        capped.append((creator_ids(None, token)[0], caps.per_token, TOKEN))
    if not capped:
        return WaitingSlot(None, caps, (), "")
    slot, now = os.urandom(8).hex(), caps.clock()
    refused = store.take_waiting([(holder, cap) for holder, cap, _ in capped], slot, now, now + caps.lease_seconds)
    if refused is not None:
        raise refusal(*next((cap, kind) for holder, cap, kind in capped if holder == refused))
    return WaitingSlot(store, caps, tuple(holder for holder, _, _ in capped), slot)


def refusal(limit: int, kind: str) -> ApiError:
    WAITING_REFUSALS.labels(kind).inc()
    who = "this address" if kind == ADDRESS else "this seat token"
    detail = (
        f"Too many waiting requests from {who}: at most {limit} may be open at once (streams, long polls with "
        "wait, hints and round reviews). Close one (or let a long poll end), then retry after Retry-After."
    )
    return ApiError(429, "too_many_waiting", detail, retry_after=RETRY_AFTER_SECONDS, limit=limit)
