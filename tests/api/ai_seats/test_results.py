"""The AI result listener's per-task subscriptions on the in-memory pub/sub (no Redis, no HTTP):
confirmation before a send, one delivery per result, unsubscription, reconnects."""

from __future__ import annotations

import threading

import pytest

from services.api.ai_seats import results
from services.api.ai_seats.results import ResultChannels, result_channel
from services.api.store.memory_store import MemoryBackend, MemorySubscription

from ..helpers import wait_until

CONFIRM = 7.25  # an unusual bound: a wait with it is the subscription's own


class Bus:
    """The result backend's pub/sub: subscriptions made through it, each able to fail once."""

    def __init__(self) -> None:
        self.backend = MemoryBackend()
        self.made: list[Flaky] = []
        self.refuse = False  # connecting fails (the result backend is down)

    def connect(self) -> Flaky:
        if self.refuse:
            raise ConnectionError("refused")
        subscription = Flaky(self.backend)
        self.made.append(subscription)
        return subscription

    def subscribed(self) -> set[str]:
        with self.backend.changed:
            return {channel for channel, subscribers in self.backend.subscribers.items() if subscribers}

    def publish(self, task_id: str, payload: bytes) -> None:
        with self.backend.changed:
            self.backend.publish(result_channel(task_id), payload)


class Flaky(MemorySubscription):
    def __init__(self, backend: MemoryBackend) -> None:
        super().__init__(backend)
        self.lost = threading.Event()

    def receive(self, timeout: float):
        if self.lost.is_set():
            raise ConnectionError("connection lost")
        return super().receive(timeout)


@pytest.fixture
def bus() -> Bus:
    return Bus()


@pytest.fixture
def heard() -> list[bytes]:
    return []


class Count:
    def __init__(self) -> None:
        self.value = 0

    def inc(self, amount: float = 1) -> None:
        self.value += int(amount)

    def dec(self, amount: float = 1) -> None:
        self.value -= int(amount)


@pytest.fixture
def gauge() -> Count:
    return Count()


@pytest.fixture
def channels(bus: Bus, heard: list[bytes], gauge: Count):
    made = ResultChannels(bus.connect, heard.append, gauge, poll_seconds=0.05, confirm_seconds=CONFIRM)
    yield made
    made.stop()


def test_a_subscription_is_confirmed_before_subscribe_returns_and_ends_with_its_result(bus, heard, channels, gauge):
    channels.start()
    assert channels.subscribe("t1") is True, "confirmed: a task sent now can't be published unheard"
    assert bus.subscribed() == {result_channel("t1")} and gauge.value == 1
    bus.publish("t2", b"not ours")  # another process's task: never delivered here
    bus.publish("t1", b"result")
    wait_until(lambda: heard == [b"result"], "the result was not handed over", 10)
    wait_until(lambda: bus.subscribed() == set(), "still subscribed after the result", 10)
    assert channels.awaited() == set() and len(bus.made) == 1, "one connection for every task"
    assert gauge.value == 0


def test_unsubscribe_ends_a_subscription_whose_result_came_another_way(bus, channels, gauge):
    channels.start()
    for task_id in ("a", "b"):
        assert channels.subscribe(task_id)
    channels.unsubscribe("a")
    channels.unsubscribe("never-subscribed")
    assert bus.subscribed() == {result_channel("b")} and channels.awaited() == {result_channel("b")}
    assert gauge.value == 1


def test_without_a_reader_nothing_waits_and_the_reader_subscribes_what_is_awaited(bus, channels, monkeypatch):
    class NoConfirmWait(threading.Event):
        def wait(self, timeout=None):
            assert timeout != CONFIRM, "a send waited for a confirmation nothing could give"
            return super().wait(timeout)

    monkeypatch.setattr(results.threading, "Event", NoConfirmWait)
    assert channels.subscribe("early") is False  # not started: sent at once, nothing confirmed
    channels.start()
    wait_until(lambda: bus.subscribed() == {result_channel("early")}, "the reader did not subscribe it", 10)


def test_a_lost_connection_is_rebuilt_with_every_awaited_channel(bus, heard, channels):
    channels.start()
    for task_id in ("kept", "done"):
        assert channels.subscribe(task_id)
    channels.unsubscribe("done")
    bus.made[0].lost.set()
    wait_until(lambda: len(bus.made) == 2, "no new connection", 10)
    wait_until(lambda: bus.subscribed() == {result_channel("kept")}, "awaited channels not subscribed again", 10)
    bus.publish("kept", b"late")
    wait_until(lambda: heard == [b"late"], "a result after the reconnect was not heard", 10)


def test_while_the_backend_is_down_a_send_is_not_held_up(bus, channels, monkeypatch):
    bus.refuse = True
    channels.start()
    wait_until(lambda: channels._broken, "the failed connection went unnoticed", 10)

    class NoConfirmWait(threading.Event):
        def wait(self, timeout=None):
            assert timeout != CONFIRM, "a send waited on a listener that can't connect"
            return super().wait(timeout)

    monkeypatch.setattr(results.threading, "Event", NoConfirmWait)
    assert channels.subscribe("while-down") is False
    bus.refuse = False  # back: the reader connects and subscribes it
    wait_until(lambda: bus.subscribed() == {result_channel("while-down")}, "not subscribed once back", 10)


def test_a_failed_subscribe_leaves_the_reader_to_reconnect(bus, channels):
    channels.start()
    assert channels.subscribe("first")

    def broken(channel: str) -> None:
        raise ConnectionError("connection lost")

    bus.made[0].subscribe = broken  # type: ignore[method-assign]
    channels.subscribe("second")
    wait_until(lambda: len(bus.made) == 2, "no new connection", 10)
    wait_until(lambda: bus.subscribed() == {result_channel("first"), result_channel("second")}, "not rebuilt", 10)


def test_a_sender_is_not_held_by_a_reader_stuck_connecting(bus, heard, gauge):
    """The reader connects holding the lock (up to the connect timeout): a sender gives up on the lock
    after the confirmation's bound and sends without a subscription (the deadline sweep finds the result)."""
    connecting, release = threading.Event(), threading.Event()

    def hanging() -> Flaky:
        connecting.set()
        release.wait(60)
        return bus.connect()

    channels = ResultChannels(hanging, heard.append, gauge, poll_seconds=0.05, confirm_seconds=0.2)
    channels.start()
    try:
        assert connecting.wait(10)
        assert channels.subscribe("stuck") is False
    finally:
        release.set()
    wait_until(lambda: len(bus.made) == 1, "the reader never connected", 10)
    assert channels.awaited() == set() and gauge.value == 0, "given up before it was registered"
    channels.stop()


def test_a_waiters_result_goes_to_the_waiter_not_the_applier(bus, heard, channels, gauge):
    channels.start()
    waiter = results.ResultWaiter()
    assert channels.subscribe("hint-1", waiter=waiter)
    bus.publish("hint-1", b"the hint")
    assert waiter.wait(10) == b"the hint"
    wait_until(lambda: bus.subscribed() == set(), "still subscribed after the result", 10)
    assert heard == [] and gauge.value == 0 and len(bus.made) == 1, "the decisions' one connection"


def test_a_released_waiters_result_goes_to_the_applier(bus, heard, channels):
    channels.start()
    waiter = results.ResultWaiter()
    assert channels.subscribe("hint-2", waiter=waiter)
    assert channels.release("hint-2") is None, "nothing arrived yet"
    assert bus.subscribed() == {result_channel("hint-2")}, "released, still subscribed"
    bus.publish("hint-2", b"too late")
    wait_until(lambda: heard == [b"too late"], "the late result did not reach the applier", 10)
    assert waiter.payload is None
