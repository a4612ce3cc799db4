"""Presence (services.api.live.presence and the store's leases) and the stream's table frames, on the in-memory store:
leases, what is published when, and what a stream sends of it."""

from __future__ import annotations

import threading

import orjson
import pytest

from services.api.games.audience import Audience
from services.api.games.record import GameRecord
from services.api.live.fanout import FanoutHub
from services.api.live.presence import PresenceSettings, Renewals, SeatPresence
from services.api.live.stream import KEEP_ALIVE, StreamSettings, TableFeed, sse_frames
from services.api.store.memory_store import MemoryStore, MemorySubscription
from services.api.store.protocol import notify_channel
from services.api.store.table_life import MessageLimits
from tests.api.helpers import wait_until
from tests.api.live.test_waiting_caps import RecordingHub, ticking

OFF, ON = [False] * 4, [True, False, False, False]


def published(probe: MemorySubscription) -> list[dict]:
    """What the game's channel carried since the last call."""
    found = []
    while (notice := probe.receive(0)) is not None:
        if notice[0] == "message":
            found.append(orjson.loads(notice[2]))
    return found


@pytest.fixture
def store() -> tuple[MemoryStore, MemorySubscription]:
    store = MemoryStore(GameRecord.from_stored)
    probe = store.subscription()
    probe.subscribe(notify_channel("g"))
    published(probe)  # the confirmation
    return store, probe


def test_a_lease_connects_its_seat_until_it_ends_and_each_change_is_published_once(store):
    store, probe = store
    assert store.hold_presence("g", 0, 1000, 21_000) == ON
    assert store.hold_presence("g", 0, 2000, 5000) == ON, "a renewal never shortens a lease"
    assert published(probe) == [{"notice": "presence", "seats": ON}], "a renewal that changes nothing is silent"
    assert store.table_extras("g", 20_999)[0] == ON and store.table_extras("g", 21_000)[0] == OFF
    assert store.hold_presence("g", None, 21_000, 0) == OFF, "a spectator's renewal drops a lapsed lease"
    assert published(probe) == [{"notice": "presence", "seats": OFF}]


def test_seat_presence_holds_for_its_lease_and_never_raises():
    clock = lambda: 100.0  # noqa: E731
    store = MemoryStore(GameRecord.from_stored)
    presence = SeatPresence(store, PresenceSettings(20.0, clock), "g", 2)
    assert presence.hold() == [False, False, True, False] and presence.renew_seconds == pytest.approx(20 / 3)
    assert SeatPresence(store, PresenceSettings(20.0, clock), "g", None).renew_seconds == 20.0, "a spectator sweeps"
    assert store.table_extras("g", 119_999)[0][2] and not store.table_extras("g", 120_000)[0][2]

    class Down(MemoryStore):
        def hold_presence(self, *args: object) -> list[bool]:
            raise ConnectionError("store down")

    assert SeatPresence(Down(GameRecord.from_stored), PresenceSettings(20.0), "g", 2).hold() is None
    assert SeatPresence(store, PresenceSettings(0.0), "g", 2).hold() is None, "0: presence off"


def test_renewals_call_each_part_at_its_own_interval():
    now, calls = [0.0], []
    renew = Renewals((lambda: calls.append("slot"), 30.0), (lambda: calls.append("seat"), 7.0), clock=lambda: now[0])
    assert renew.seconds == 7.0
    for step in range(1, 9):
        now[0] = step * 7.0
        renew()
    assert calls.count("seat") == 8 and calls.count("slot") == 1, calls


def hub_with(events: list[dict]) -> tuple[MemoryStore, FanoutHub]:
    store = MemoryStore(GameRecord.from_stored)
    assert store.commit(GameRecord("g", 5, [], "{}"), None, events)
    return store, FanoutHub(store, store.subscription)


def event(seq: int, kind: str, version: int, seat: int = 0) -> dict:
    return {"seq": seq, "type": kind, "version": version, "data": {"seat": seat}}


def test_a_stream_sends_presence_first_then_changes_and_messages_without_ids():
    store, hub = hub_with([event(1, "bid", 1)])
    settings = StreamSettings(heartbeat_seconds=0.2, max_seconds=30.0, page_size=100)
    frames = sse_frames(hub, "g", Audience(None), 1, settings, table=TableFeed(OFF))
    assert next(frames) == b'retry: 2000\n\nevent: presence\ndata: {"seats":[false,false,false,false]}\n\n'
    got: list[bytes] = []

    def read() -> None:
        for chunk in frames:
            got.append(chunk)
            if b"event: message" in chunk:
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    wait_until(lambda: notify_channel("g") in store.backend.subscribers, "the stream never subscribed", 10)
    store.hold_presence("g", 1, 0, 10**12)
    store.hold_presence("g", 1, 0, 10**12)  # no change: no frame
    store.post_message("g", 1, b'{"seat":1,"code":"wow","at_ms":7}', 7, MessageLimits())
    reader.join(10)
    body = b"".join(got)
    assert b'event: presence\ndata: {"seats":[false,true,false,false]}\n\n' in body
    assert b'event: message\ndata: {"seat":1,"code":"wow","at_ms":7}\n\n' in body
    assert b"id:" not in body and body.count(b"event: presence") == 1
    frames.close()
    hub.stop()


def test_a_stream_listens_before_its_first_bytes_so_a_message_posted_once_they_arrive_reaches_it():
    """A client that has the stream's headers (its first bytes) may count on every later notice."""
    store, hub = hub_with([event(1, "bid", 1)])
    settings = StreamSettings(heartbeat_seconds=0.2, max_seconds=30.0, page_size=100)
    frames = sse_frames(hub, "g", Audience(None), 1, settings, table=TableFeed(OFF))
    assert next(frames).startswith(b"retry: 2000\n\n")
    assert notify_channel("g") in store.backend.subscribers  # subscribed already, not some time later
    store.post_message("g", 2, b'{"seat":2,"code":"good_game","at_ms":8}', 8, MessageLimits())
    assert next(frames) == b'event: message\ndata: {"seat":2,"code":"good_game","at_ms":8}\n\n'
    frames.close()
    hub.stop()


def test_a_long_poll_is_not_woken_by_notices():
    store, hub = hub_with([event(1, "bid", 1)])
    with hub.listen("g") as listener:
        store.hold_presence("g", 0, 0, 10**12)
        assert listener.wait(1, 100, 0.2) == [] and listener.take_notices() == []
    hub.stop()


def test_a_stream_ends_after_the_rejoin_that_replaced_its_token_and_only_that_one():
    settings = StreamSettings(heartbeat_seconds=0.0, max_seconds=20.0, page_size=100)
    rejoins = [event(1, "seat_rejoined", 3, seat=0), event(2, "seat_rejoined", 6, seat=1), event(3, "bid", 7)]
    _, hub = hub_with([*rejoins, event(4, "seat_rejoined", 8, seat=1)])
    seat0 = list(sse_frames(hub, "g", Audience(0, "h", 5), 0, settings, table=TableFeed(None), clock=Ticks()))
    assert b"id: 4\n" in seat0[1] and KEEP_ALIVE in seat0, "an earlier rejoin of its seat, or another's, ends nothing"
    seat1 = list(sse_frames(hub, "g", Audience(1, "h", 6), 0, settings, table=TableFeed(None), clock=Ticks()))
    assert len(seat1) == 2 and seat1[1].endswith(b'"data":{"seat":1}}\n\n'), "it ended right after event 4"
    hub.stop()


class Ticks:
    """A clock that moves one second per reading: a stream's lifetime runs out without waiting."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_waits_cut_short_to_renew_leases_send_keep_alives_only_a_heartbeat_apart():
    hub = RecordingHub()
    settings = StreamSettings(heartbeat_seconds=15.0, max_seconds=60.0, page_size=500, renew_seconds=5.0)
    frames = list(sse_frames(hub, "g", Audience(None), 0, settings, clock=ticking(), renew=lambda: None))  # type: ignore[arg-type]
    assert hub.waits and max(hub.waits) <= 5.0
    assert 2 <= frames.count(KEEP_ALIVE) <= 60 / 15 + 1, "not one per renewal"
