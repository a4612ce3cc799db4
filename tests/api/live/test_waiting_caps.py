"""Caps on a client's waiting requests (services.api.live.waiting_caps) on the in-memory store: slots taken
per address and per seat token across processes, refused past a cap, released, renewed, and lapsed when their
holder died (no Redis, no HTTP).  The ``check_*`` functions take a store factory, so the same checks run on the
Redis Cluster (tests/api/store/test_cluster.py); the store's slots on memory, Redis and the Cluster:
tests/api/store/test_waiting_slots_contract.py; over HTTP: tests/api/http/test_waiting_caps.py."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from contextlib import contextmanager
from itertools import pairwise
from typing import Any

import pytest

from services.api.games.audience import Audience
from services.api.games.record import GameRecord
from services.api.live.fanout import FanoutHub
from services.api.live.stream import KEEP_ALIVE, StreamSettings, sse_frames
from services.api.live.waiting_caps import NO_CAPS, RETRY_AFTER_SECONDS, WaitingCaps, WaitingSlot, take_slot
from services.api.problems import ApiError
from services.api.store.memory_store import MemoryBackend, MemoryStore
from services.api.store.protocol import GameStore

ALICE, TOKEN = "192.0.2.1", "a-seat-token"
Stores = Callable[[], GameStore]  # a new API process's store over the one shared backend


def clients() -> tuple[str, str, str, str]:
    """Three addresses and a token no other check uses (so the checks may share a store: a Redis Cluster's)."""
    run = uuid.uuid4().hex[:8]
    return f"192.0.2.1/{run}", f"192.0.2.2/{run}", f"192.0.2.3/{run}", f"token/{run}"


class Clock:
    """The time the caps stamp leases with, moved by the test (starts now: Redis expires keys at real times)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def refused(take: Callable[[], WaitingSlot]) -> ApiError:
    with pytest.raises(ApiError) as error:
        take()
    return error.value


def check_an_address_waits_at_most_its_cap_across_processes(stores: Stores) -> None:
    alice, bob, _, token = clients()
    caps = WaitingCaps(per_address=2, per_token=0, lease_seconds=90)
    one, two = stores(), stores()
    first = take_slot(one, caps, alice, None)
    take_slot(two, caps, alice, token)  # no token cap: a token changes nothing
    problem = refused(lambda: take_slot(one, caps, alice, None))
    assert (problem.status, problem.code, problem.retry_after) == (429, "too_many_waiting", RETRY_AFTER_SECONDS)
    assert problem.extra == {"limit": 2} and "this address" in problem.detail and "at most 2" in problem.detail
    take_slot(two, caps, bob, None)  # another address has its own slots
    first.release()
    first.release()  # once only: a second release frees nothing more
    take_slot(two, caps, alice, None)
    refused(lambda: take_slot(one, caps, alice, None))


def check_a_token_waits_at_most_its_cap_from_any_address_and_a_refusal_holds_nothing(stores: Stores) -> None:
    alice, bob, carol, token = clients()
    caps = WaitingCaps(per_address=3, per_token=1, lease_seconds=90)
    store = stores()
    with take_slot(store, caps, alice, token):
        problem = refused(lambda: take_slot(store, caps, bob, token))
        assert problem.code == "too_many_waiting" and problem.extra == {"limit": 1}
        assert "this seat token" in problem.detail
        for _ in range(3):  # the refused request held none of Bob's address's slots
            take_slot(store, caps, bob, None)
        assert refused(lambda: take_slot(store, caps, bob, None)).extra == {"limit": 3}
    with take_slot(store, caps, carol, token):  # the context's end released the token's slot
        pass


def check_a_slot_lapses_at_its_leases_end_unless_renewed(stores: Stores) -> None:
    alice = clients()[0]
    clock = Clock()
    caps = WaitingCaps(per_address=1, per_token=0, lease_seconds=10, clock=clock)
    store = stores()
    held = take_slot(store, caps, alice, None)
    clock.now += 9
    refused(lambda: take_slot(store, caps, alice, None))
    held.renew()  # its request still waits: held until 19 from the start
    clock.now += 9
    refused(lambda: take_slot(store, caps, alice, None))
    clock.now += 2  # no renewal since: its process died, and the slot lapses by itself
    take_slot(stores(), caps, alice, None)


CHECKS = [
    check_an_address_waits_at_most_its_cap_across_processes,
    check_a_token_waits_at_most_its_cap_from_any_address_and_a_refusal_holds_nothing,
    check_a_slot_lapses_at_its_leases_end_unless_renewed,
]


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__.removeprefix("check_"))
def test_slots_on_the_memory_store(check: Callable[[Stores], None]) -> None:
    backend = MemoryBackend()
    check(lambda: MemoryStore(GameRecord.from_stored, backend))


def test_with_no_cap_a_wait_takes_no_slot() -> None:
    store = MemoryStore(GameRecord.from_stored)
    for caps, token in ((NO_CAPS, TOKEN), (WaitingCaps(per_address=0, per_token=3), None)):
        slot = take_slot(store, caps, ALICE, token)
        slot.renew()
        slot.release()
        assert slot.renew_seconds == 0
    assert store.backend.waiting == {}


def test_a_store_failure_after_the_take_never_fails_the_wait() -> None:
    class Failing(MemoryStore):
        def renew_waiting(self, *args: Any) -> None:
            raise ConnectionError("store down")

        def release_waiting(self, *args: Any) -> None:
            raise ConnectionError("store down")

    slot = take_slot(Failing(GameRecord.from_stored), WaitingCaps(per_address=1, lease_seconds=30), ALICE, None)
    assert slot.renew_seconds == 10
    slot.renew()
    slot.release()  # logged; the slot lapses at its lease's end


class RecordingHub:
    """What ``sse_frames`` needs of a hub: its reads are recorded (and find nothing)."""

    draining = False

    def __init__(self) -> None:
        self.waits: list[float] = []

    @contextmanager
    def listen(self, game_id: str) -> Any:
        hub = self

        class Listener:
            def wait(self, after: int, limit: int, seconds: float) -> list[dict[str, Any]]:
                hub.waits.append(seconds)
                return []

        yield Listener()


def ticking() -> Callable[[], float]:
    """A clock that moves one second per reading (the stream reads it once per loop)."""
    readings = iter(range(1, 10_000))
    return lambda: float(next(readings))


def test_an_open_stream_renews_its_slot_and_never_reads_longer_than_a_renewal_period() -> None:
    hub, renewed = RecordingHub(), []
    clock = ticking()
    settings = StreamSettings(heartbeat_seconds=15.0, max_seconds=30.0, page_size=500, renew_seconds=5.0)
    renew = lambda: renewed.append(len(hub.waits))  # noqa: E731  (at which read)
    frames = list(sse_frames(hub, "g", Audience(None), 0, settings, clock=clock, renew=renew))  # type: ignore[arg-type]
    assert set(frames[1:]) == {KEEP_ALIVE}
    assert hub.waits and max(hub.waits) <= 5.0, "a read outlasting the renewal period could let the lease lapse"
    assert len(renewed) >= 4 and all(b - a == 5 for a, b in pairwise(renewed)), "a renewal every fifth loop"
    hub.waits.clear()
    unrenewed = StreamSettings(heartbeat_seconds=15.0, max_seconds=30.0, page_size=500)
    list(sse_frames(hub, "g", Audience(None), 0, unrenewed, clock=ticking()))  # type: ignore[arg-type]
    assert max(hub.waits) == 15.0, "without a slot the reads wait a heartbeat"


def test_a_long_poll_longer_than_a_renewal_period_renews_its_slot() -> None:
    store = MemoryStore(GameRecord.from_stored)
    assert store.commit(GameRecord("g", 1, [], "{}"), None, [{"seq": 1, "type": "bid", "version": 1, "data": {}}])
    hub = FanoutHub(store, store.subscription)
    renewals: list[int] = []
    try:
        assert hub.wait_events("g", 1, 500, 0.3, lambda: renewals.append(1), 0.1) == []
        assert renewals, "a 0.3 s wait renews its 0.1 s period at least once"
        renewals.clear()
        assert hub.wait_events("g", 0, 500, 0.3, lambda: renewals.append(1), 0.1)[0]["seq"] == 1
        assert hub.wait_events("g", 1, 500, 0.05, lambda: renewals.append(1), 0.1) == []
        assert renewals == [], "an answered wait and one shorter than the period renew nothing"
    finally:
        hub.stop()
