"""The wake-ups reader on the in-memory store: keyed and unkeyed waiters, ref-counted subscriptions, the
drain (no Redis, no HTTP)."""

from __future__ import annotations

import threading

import orjson

from services.api.live.wakeups import Wakeups
from services.api.store.matches import EVERYONE
from services.api.store.memory_store import MemoryBackend, MemorySubscription

from ..helpers import wait_until


def test_a_message_naming_keys_wakes_their_waiters_and_the_unkeyed_ones():
    backend = MemoryBackend()
    wakeups = Wakeups(lambda: MemorySubscription(backend), poll_seconds=0.05)
    with wakeups.watch("c", "a") as a, wakeups.watch("c", "b") as b, wakeups.watch("c") as anyone:
        with backend.changed:
            backend.publish("c", b'["a"]')
        assert a.wait(10) and anyone.wait(10)
        assert not b.wait(0.05)
        with backend.changed:
            backend.publish("c", b"7")  # not a list of keys: everyone
        assert a.wait(10) and b.wait(10) and anyone.wait(10)
    assert wakeups.counts() == {"waiters": 0, "channels": 0}
    assert backend.subscribers == {}, "unsubscribed with its last waiter"
    wakeups.stop()


def test_a_list_naming_everyone_wakes_every_waiter():
    backend = MemoryBackend()
    wakeups = Wakeups(lambda: MemorySubscription(backend), poll_seconds=0.05)
    with wakeups.watch("c", "a") as a, wakeups.watch("c", "b") as b:
        with backend.changed:
            backend.publish("c", orjson.dumps(["a", EVERYONE]))  # a bucket's count of waiting requests changed
        assert a.wait(10) and b.wait(10)
    wakeups.stop()


def test_a_waiter_on_another_channel_sleeps_on():
    backend = MemoryBackend()
    wakeups = Wakeups(lambda: MemorySubscription(backend), poll_seconds=0.05)
    with wakeups.watch("c") as here, wakeups.watch("d") as there:
        with backend.changed:
            backend.publish("d", b"1")
        assert there.wait(10) and not here.wait(0.05)
    wakeups.stop()


def test_the_drain_wakes_every_waiter_at_once():
    backend = MemoryBackend()
    wakeups = Wakeups(lambda: MemorySubscription(backend), poll_seconds=0.05)
    woken = threading.Event()

    def wait() -> None:
        with wakeups.watch("c", "k") as waiter:
            waiter.wait(60)
            woken.set()

    thread = threading.Thread(target=wait, daemon=True)
    thread.start()
    wait_until(lambda: wakeups.counts()["waiters"] == 1, "the waiter never watched")
    wakeups.drain()
    assert woken.wait(10) and wakeups.draining
    wakeups.stop()
