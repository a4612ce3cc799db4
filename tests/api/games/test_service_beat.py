"""The service's heartbeat as API processes keep it (services/api/games/service_beat.py), on the memory store: a gap
longer than the bound is recorded once, by the first beat after it, and every process learns of it before it judges a
clock; an answer is trusted only while the beat it came from is fresh."""

from __future__ import annotations

import pytest

from services.api.games.clocks import Outages
from services.api.games.record import GameRecord
from services.api.games.service_beat import NO_BEAT, ServiceBeat
from services.api.problems import ApiError
from services.api.store.memory_store import MemoryBackend, MemoryStore

T0 = 1_800_000_000.0  # s
BOUND, GRACE = 1.0, 5.0


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


def process(backend: MemoryBackend, clock: Clock) -> ServiceBeat:
    return ServiceBeat(MemoryStore(GameRecord.from_stored, backend), BOUND, GRACE, clock=clock)


def test_a_gap_longer_than_the_bound_is_one_outage_recorded_by_the_first_beat_after_it():
    backend, clock = MemoryBackend(), Clock()
    a, b = process(backend, clock), process(backend, clock)
    found: list[tuple[int, int]] = []
    b.on_outage = found.append
    assert a.beat() == Outages((), 5_000)
    clock.now += 0.9
    assert b.beat().spans == (), "a gap within the bound: the service took moves all along"
    clock.now += 20  # every process stopped
    assert b.beat().spans == ((round((T0 + 0.9) * 1000), round((T0 + 20.9) * 1000)),)
    assert found == [b.beat().spans[0]] and len(found) == 1, "told once, to the process whose beat found it"
    assert a.beat().spans == b.beat().spans, "any beat after it answers it"


def test_the_last_beat_never_goes_back_so_a_process_whose_clock_is_behind_records_no_gap():
    backend, clock = MemoryBackend(), Clock()
    ahead, behind = process(backend, clock), process(backend, Clock())
    clock.now += 0.8
    ahead.beat()
    assert behind.beat().spans == ()
    clock.now += 1.5  # 1.5 s after the last beat of the process ahead
    assert ahead.beat().spans == ((round((T0 + 0.8) * 1000), round((T0 + 2.3) * 1000)),)


def test_current_answers_from_a_fresh_beat_and_beats_again_when_its_last_is_older_than_half_the_bound():
    backend, clock = MemoryBackend(), Clock()
    beat = process(backend, clock)
    store = beat.store
    calls: list[int] = []
    real = store.beat
    store.beat = lambda *args: calls.append(args[0]) or real(*args)  # type: ignore[method-assign]
    beat.current()
    clock.now += 0.4
    beat.current()
    assert len(calls) == 1, "fresh: no round trip"
    clock.now += 0.2
    beat.current()
    assert len(calls) == 2, "half the bound old: beat first"
    clock.now += 0.2
    beat.current(within=0.1)
    assert len(calls) == 3, "the sweeper beats at every sweep"


def test_an_answer_that_came_late_proves_nothing_and_a_store_too_slow_refuses_the_change():
    backend, clock = MemoryBackend(), Clock()
    other, slow = process(backend, clock), process(backend, clock)
    other.beat()
    real = slow.store.beat

    def late(*args: int) -> tuple[bool, list[tuple[int, int]]]:
        answer = real(*args)
        clock.now += 30  # the answer arrives 30 s after the beat left (the store stopped meanwhile)
        return answer

    slow.store.beat = late  # type: ignore[method-assign]
    with pytest.raises(ApiError) as refused:
        slow.current()
    assert refused.value.status == 503
    slow.store.beat = real  # type: ignore[method-assign]
    ms = round(T0 * 1000)
    gaps = ((ms, ms + 30_000), (ms + 30_000, ms + 60_000), (ms + 60_000, ms + 90_000))
    assert slow.current().spans == gaps, "the 30 s after each late beat, once an answer comes in time"


def test_no_beat_gives_nothing_back():
    assert NO_BEAT.current() == Outages()
