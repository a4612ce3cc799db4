"""Run-out clocks through the timers and sweeper, on the in-memory store: a person's deadline is registered
with the commit that starts the turn, the sweep sends the timeout move to the takeover level's queue once it
passes (from any process), an entry found before its deadline goes back, and an away seat's turn is sent at
once.  Celery is the recorder of tests/api/ai_seats/test_driver.py; one clock drives the store and the driver."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
import redis

from services.api.ai_seats.dispatch import AiDispatcher
from services.api.ai_seats.driver import AiDriver
from services.api.ai_seats.hooks import DispatchHooks, ai_seat_to_move
from services.api.ai_seats.pauses import PauseGate
from services.api.games import commands
from services.api.games.commands import Collaborators
from services.api.games.record import GameRecord
from services.api.games.service_beat import NO_BEAT, ServiceBeat
from services.api.http import request_schemas
from services.api.store import protocol
from services.api.store.memory_store import MemoryBackend, MemoryStore
from services.engine import turn
from tests.api.ai_seats.test_driver import DEADLINE, Clock, RecordingCelery, published
from tests.api.helpers import wait_until

SCALE = 0.1  # fast: 1 s a move, 3 s of reserve
WATCH = 60.0  # PAUSE_UNWATCHED_SECONDS
OUTAGE, GRACE = 1.0, 5.0  # CLOCK_OUTAGE_SECONDS, CLOCK_OUTAGE_GRACE_SECONDS


class Process:
    """One API process over the shared backend, its clock the test's; ``beats``: with the service's heartbeat (a jump
    of the clock with no sweep in it is then an outage)."""

    def __init__(self, backend: MemoryBackend, celery: RecordingCelery, clock: Clock, beats: bool = False) -> None:
        self.store = MemoryStore(GameRecord.from_stored, backend, clock=clock)
        self.dispatcher = AiDispatcher(celery, self.store, DEADLINE, clock=clock)  # type: ignore[arg-type]
        self.gate = PauseGate(self.store, WATCH, self.dispatcher)
        outages = ServiceBeat(self.store, OUTAGE, GRACE, clock=clock) if beats else NO_BEAT
        hooks = DispatchHooks(self.dispatcher, self.gate)
        self.ctx = Collaborators(self.store, ai=hooks, clock_scale=SCALE, outages=outages)
        self.driver = AiDriver(self.ctx, self.dispatcher, None, 3, sweep_interval=0.25, clock=clock, gate=self.gate)


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch) -> tuple[Process, Process, RecordingCelery, Clock]:
    backend, celery, clock = MemoryBackend(), RecordingCelery(), Clock()
    clock.now = 1_800_000_000.0
    monkeypatch.setattr(protocol, "time", SimpleNamespace(time=clock))  # the store's now_ms
    return Process(backend, celery, clock), Process(backend, celery, clock), celery, clock


def people_game(process: Process, seats: list[dict[str, Any]] | None = None, **options: Any) -> str:
    body = {"seats": seats or [{"type": "human"}] * 4, "seed": 5, "options": {"clock": "fast", **options}}
    return commands.create_game(process.ctx, request_schemas.CREATE_GAME_REQUEST.load(body))["game_id"]


def test_a_persons_deadline_is_in_the_timers_and_the_sweep_sends_the_timeout_to_the_takeover_level(world):
    a, b, celery, clock = world
    game_id = people_game(a, ai_takeover="normal")
    record = a.store.load(game_id)
    seat = turn(record.state)
    deadline = record.clock.deadline_ms / 1000
    assert celery.sent == [] and a.store.due_turns(deadline, 10) == [game_id]
    assert a.store.due_turns(deadline - 0.001, 10) == []
    clock.now = deadline - 0.1
    b.driver.sweep_once()
    assert celery.sent == []
    clock.now = deadline + 0.1
    b.driver.sweep_once()  # any process: the other one finds it
    (task,) = celery.sent
    assert (task["seat"], task["level"], task["queue"], task["version"]) == (seat, "normal", "ai.normal", 1)
    assert task["view"]["you"] == seat and "hand" in task["view"]
    b.driver._on_message(published(task))
    types = [e["type"] for e in a.store.events_after(game_id, record.seq, 10)]
    assert types == ["turn_timed_out", "bid", "turn_clock"]
    after = a.store.load(game_id)
    assert after.version == 2 and a.store.due_turns(after.clock.deadline_ms / 1000, 10) == [game_id]


def test_the_timeout_of_a_game_without_a_takeover_level_is_basics(world):
    a, _, celery, clock = world
    game_id = people_game(a, ai_takeover=None)
    clock.now = a.store.load(game_id).clock.deadline_ms / 1000
    a.driver.sweep_once()
    assert [t["level"] for t in celery.sent] == ["basic"]


def test_an_entry_found_before_its_clock_runs_out_goes_back_at_the_deadline(world):
    a, _, celery, clock = world
    game_id = people_game(a)
    deadline = a.store.load(game_id).clock.deadline_ms / 1000
    a.store.expect_turn(game_id, clock.now + 0.5, earlier=True)  # a racing change's sooner registration
    a.store.expect_turn(game_id, clock.now + 60, earlier=True)  # a later one never pushes it back
    clock.now += 0.5
    a.driver.sweep_once()
    assert celery.sent == [] and a.store.due_turns(clock.now + 100, 10) == [game_id]
    assert a.store.due_turns(deadline - 0.001, 10) == [] and a.store.due_turns(deadline, 10) == [game_id]


def play_on(a: Process, celery: RecordingCelery, clock: Clock, game_id: str) -> None:
    """The next computer move: a person's once the sweep finds the clock run out, else the one sent."""
    record = a.store.load(game_id)
    if record.clock.seat is not None:
        clock.now = record.clock.deadline_ms / 1000
        a.driver.sweep_once()  # the timeout move goes out
    task = celery.sent[-1]
    assert task["version"] == record.version, "every computer turn is sent, a person's when it runs out"
    a.driver._on_message(published(task))


def test_an_away_seats_turn_goes_to_the_computer_at_once(world):
    a, _, celery, clock = world
    game_id = people_game(a, [{"type": "human"}, {"type": "ai", "level": "basic"}] * 2)
    while "seat_away" not in [e["type"] for e in a.store.events_after(game_id, 0, 200)]:
        play_on(a, celery, clock, game_id)
    gone = a.store.load(game_id).clock.away.index(True)
    while turn(a.store.load(game_id).state) != gone:
        play_on(a, celery, clock, game_id)
    record = a.store.load(game_id)
    assert record.clock.deadline_ms is None and ai_seat_to_move(record, 0) == gone
    sent = celery.sent[-1]
    assert (sent["version"], sent["seat"], sent["level"]) == (record.version, gone, "standard"), "sent with the commit"


def test_a_game_whose_people_are_all_away_is_left_to_bulk_and_paused_while_nobody_reads_it(world):
    a, _, celery, clock = world
    game_id = people_game(a, [{"type": "human"}, {"type": "ai", "level": "basic"}] * 2)
    while not a.store.load(game_id).computer_only:  # both people time out twice in a row: nobody is at the table
        play_on(a, celery, clock, game_id)
    assert a.store.load(game_id).clock.away == (True, False, True, False)
    assert celery.sent[-1]["queue"].startswith("ai.bulk."), "nobody waits on its turns"
    clock.now += WATCH + 1  # nobody read it meanwhile
    a.driver._on_message(published(celery.sent[-1]))
    record = a.store.load(game_id)
    assert celery.sent[-1]["version"] == record.version - 1 and game_id in a.store.backend.paused
    a.gate.seen(record)  # a person looks at the table again: it goes on
    assert celery.sent[-1]["version"] == record.version


def test_a_burst_of_run_out_clocks_is_sent_in_one_parallel_sweep_each_once(world):
    a, b, celery, clock = world
    parallel = AiDriver(a.ctx, a.dispatcher, None, 3, sweep_interval=0.25, clock=clock, parallel=4)
    games = [people_game(a) for _ in range(5)]
    clock.now = max(a.store.load(g).clock.deadline_ms for g in games) / 1000
    parallel.sweep_once()
    b.driver.sweep_once()  # the other process finds nothing left
    assert sorted(t["game_id"] for t in celery.sent) == sorted(games)


def test_the_sweeper_wakes_at_a_deadline_its_process_registered_not_at_its_interval():
    backend, celery = MemoryBackend(), RecordingCelery()
    store = MemoryStore(GameRecord.from_stored, backend)
    dispatcher = AiDispatcher(celery, store, DEADLINE)  # type: ignore[arg-type]
    hooks = DispatchHooks(dispatcher)
    ctx = Collaborators(store, ai=hooks, clock_scale=0.001)  # fast: a 40 ms first deadline
    driver = AiDriver(ctx, dispatcher, None, 3, sweep_interval=3600.0)  # never by the interval in this test
    hooks.on_deadline = driver.wake_at
    driver.start()
    try:
        body = {"seats": [{"type": "human"}] * 4, "options": {"clock": "fast"}}
        game_id = commands.create_game(ctx, request_schemas.CREATE_GAME_REQUEST.load(body))["game_id"]
        wait_until(lambda: celery.sent, "the timeout move is sent as the clock runs out", bound=10)
    finally:
        driver.stop()
    (task,) = celery.sent
    assert task["game_id"] == game_id and task["version"] == 1


@pytest.fixture
def beating(monkeypatch: pytest.MonkeyPatch) -> tuple[Process, Process, RecordingCelery, Clock]:
    """:func:`world` with the service's heartbeat in each process."""
    backend, celery, clock = MemoryBackend(), RecordingCelery(), Clock()
    clock.now = 1_800_000_000.0
    monkeypatch.setattr(protocol, "time", SimpleNamespace(time=clock))
    return Process(backend, celery, clock, beats=True), Process(backend, celery, clock, beats=True), celery, clock


def sweeps_until(process: Process, clock: Clock, until: float) -> None:
    """The service up until ``until``: the process sweeps (and beats) every quarter second."""
    while clock.now < until:
        clock.now = min(until, clock.now + 0.25)
        process.driver.sweep_once()


def test_a_deadline_that_ran_out_during_an_outage_is_given_back_by_the_sweep_not_timed_out(beating):
    a, b, celery, clock = beating
    a.driver.sweep_once()
    game_id = people_game(a)
    record = a.store.load(game_id)
    deadline = record.clock.deadline_ms / 1000
    sweeps_until(a, clock, clock.now + 1)
    stopped = clock.now
    clock.now = deadline + 20  # every API process stopped past the deadline; one is back
    b.driver.sweep_once()
    assert celery.sent == [], "no timeout: the time of the outage is given back first"
    assert [e["type"] for e in a.store.events_after(game_id, record.seq, 10)] == ["clock_credited", "turn_clock"]
    given = a.store.load(game_id).clock.deadline_ms / 1000
    assert deadline - stopped == pytest.approx(3, abs=1e-3), "3 s were left when the service stopped"
    assert given == pytest.approx(clock.now + GRACE, abs=1e-3), "less than the grace: the grace after it"
    assert a.store.due_turns(given - 0.001, 10) == [] and a.store.due_turns(given, 10) == [game_id]
    sweeps_until(b, clock, given - 0.01)
    assert celery.sent == []
    sweeps_until(b, clock, given + 0.25)
    (task,) = celery.sent
    assert task["game_id"] == game_id and task["version"] == record.version + 1, "the clock given back runs out"


def test_a_sweep_that_cannot_beat_acts_on_no_deadline(beating):
    a, _, celery, clock = beating
    game_id = people_game(a)
    clock.now = a.store.load(game_id).clock.deadline_ms / 1000 + 1

    def refused(*args: int) -> None:
        raise redis.ConnectionError("the store is down")

    a.store.beat = refused  # type: ignore[method-assign]
    with pytest.raises(redis.ConnectionError):
        a.driver.sweep_once()
    assert celery.sent == [] and a.store.due_turns(clock.now, 10) == [game_id], "left for a sweep that beats"
