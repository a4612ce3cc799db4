"""The fan-out hub on the in-memory store: delivery, ref-counted subscriptions, gap filling, lost
messages and a lost connection (no Redis, no HTTP)."""

from __future__ import annotations

import threading

from services.api.games.record import GameRecord
from services.api.live.fanout import FanoutHub
from services.api.store.memory_store import MemoryBackend, MemoryStore, MemorySubscription
from services.api.store.protocol import notify_channel

from ..helpers import wait_until


def _event(seq: int) -> dict:
    return {"seq": seq, "type": "bid", "version": seq, "data": {"seat": 0, "bid": 2}}


def _game(store: MemoryStore, events: int) -> GameRecord:
    record = GameRecord("g", 1, [], "{}")
    assert store.commit(record, None, [_event(s) for s in range(1, events + 1)])
    return record


def _append(store: MemoryStore, record: GameRecord, seqs: list[int]) -> GameRecord:
    nxt = GameRecord("g", record.version + 1, [], "{}")
    assert store.commit(nxt, record, [_event(s) for s in seqs])
    return nxt


class Recording(MemorySubscription):
    """A memory subscription that can drop messages (pub/sub is at-most-once) or fail once."""

    made = 0

    def __init__(self, backend: MemoryBackend, drop: bool = False, fail_after: int | None = None) -> None:
        super().__init__(backend)
        Recording.made += 1
        self.drop = drop
        self.fail_after = fail_after

    def receive(self, timeout: float):
        notice = super().receive(timeout)
        if self.fail_after is not None and notice is not None and notice[0] == "message":
            if self.fail_after == 0:
                raise ConnectionError("connection lost")
            self.fail_after -= 1
        if notice is not None and notice[0] == "message" and self.drop:
            return None
        return notice


def _wait_in_thread(hub: FanoutHub, after: int, seconds: float = 30.0) -> tuple[threading.Thread, dict]:
    out: dict = {}

    def run() -> None:
        with hub.listen("g") as listener:
            # The first wait reads the store: done here, before the test is told to write, so what it
            # writes next reaches the waiter through the hub, never through that first read.
            assert listener.wait(after, 500, 0) == []
            out["listening"] = True
            out["events"] = listener.wait(after, 500, seconds)

    thread = threading.Thread(target=run)
    thread.start()
    wait_until(lambda: hub.counts()["listeners"] >= 1 and out.get("listening"), "never listened", 10)
    return thread, out


def test_a_waiter_wakes_with_the_published_events_and_the_last_one_out_unsubscribes():
    store = MemoryStore(GameRecord.from_stored)
    record = _game(store, 2)
    hub = FanoutHub(store, store.subscription)
    with hub.listen("g") as first, hub.listen("g") as second:
        assert hub.counts() == {"listeners": 2, "subscriptions": 1, "readers": 1}  # one subscription per game
        assert [e["seq"] for e in first.wait(0, 500, 5)] == [1, 2]  # the first wait reads the store
        assert second.wait(2, 500, 0) == []
        _append(store, record, [3, 4])
        assert [e["seq"] for e in second.wait(2, 500, 30)] == [3, 4]
        assert [e["seq"] for e in first.wait(2, 1, 30)] == [3]  # a page: the rest comes next
        assert [e["seq"] for e in first.wait(3, 500, 30)] == [4]
    assert hub.counts()["listeners"] == 0 and hub.counts()["subscriptions"] == 0
    assert not store.backend.subscribers.get(notify_channel("g"))
    hub.stop()


def _store_unpublished(store: MemoryStore, seq: int) -> None:
    """An event in the log that no publication announced (pub/sub is at-most-once)."""
    with store.backend.changed:  # the backend's lock (re-entrant)
        store.backend.events["g"].append((seq, b'{"seq":%d,"type":"bid","version":%d,"data":{}}' % (seq, seq)))


def test_a_gap_in_the_published_seqs_is_filled_from_the_store():
    store = MemoryStore(GameRecord.from_stored)
    record = _game(store, 1)
    hub = FanoutHub(store, store.subscription)
    thread, out = _wait_in_thread(hub, after=1)
    _store_unpublished(store, 2)  # seq 2 written without a publication, then 3 published
    _append(store, record, [3])
    thread.join(30)
    assert [e["seq"] for e in out["events"]] == [2, 3]
    hub.stop()


def test_a_lost_message_is_found_when_the_wait_times_out():
    store = MemoryStore(GameRecord.from_stored)
    record = _game(store, 1)
    hub = FanoutHub(store, lambda: Recording(store.backend, drop=True))
    thread, out = _wait_in_thread(hub, after=1, seconds=0.5)
    _append(store, record, [2])
    thread.join(30)
    assert [e["seq"] for e in out["events"]] == [2]
    hub.stop()


def test_after_a_lost_connection_the_hub_resubscribes_and_waiters_reread_the_store():
    store = MemoryStore(GameRecord.from_stored)
    record = _game(store, 1)
    Recording.made = 0
    hub = FanoutHub(store, lambda: Recording(store.backend, fail_after=0))
    thread, out = _wait_in_thread(hub, after=1)
    _append(store, record, [2])  # its message breaks the connection: the event arrives by the resync
    thread.join(30)
    assert [e["seq"] for e in out["events"]] == [2]
    # the resync came with the re-made subscription's confirmation (made by the reader thread)
    wait_until(lambda: Recording.made == 2, "the hub never re-made its subscription", 30)
    assert hub.counts()["subscriptions"] == 0
    hub.stop()


def test_an_unreadable_message_makes_listeners_reread_the_store_and_the_reader_lives_on():
    store = MemoryStore(GameRecord.from_stored)
    record = _game(store, 1)
    hub = FanoutHub(store, store.subscription)
    thread, out = _wait_in_thread(hub, after=1)
    with store.backend.changed:  # seq 2 stored, then a garbled publication instead of its events
        _store_unpublished(store, 2)
        store.backend.publish(notify_channel("g"), b"[2-0,{")
    thread.join(30)
    assert [e["seq"] for e in out["events"]] == [2]
    thread, out = _wait_in_thread(hub, after=2)  # the same reader still delivers
    _append(store, record, [3])
    thread.join(30)
    assert [e["seq"] for e in out["events"]] == [3]
    hub.stop()


def test_a_drained_hub_ends_every_wait_and_waits_no_more():
    store = MemoryStore(GameRecord.from_stored)
    _game(store, 2)
    hub = FanoutHub(store, store.subscription)
    thread, out = _wait_in_thread(hub, after=2, seconds=600)
    hub.drain()
    thread.join(timeout=30)
    assert not thread.is_alive() and out["events"] == []
    with hub.listen("g") as late:  # a wait that starts after the drain returns at once, with what there is
        assert [e["seq"] for e in late.wait(1, 500, 600)] == [2]
        assert late.wait(2, 500, 600) == []
    hub.stop()
