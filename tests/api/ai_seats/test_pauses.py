"""Paused computer-only games (services.api.ai_seats.pauses) against the in-memory store.

Celery is the recorder of tests/api/ai_seats/test_driver.py, the clock a number the test moves: a
computer-only game nobody reads for WATCH seconds stops sending AI turns, the sweeper does not send
them either, and the next read sends exactly one.  Over HTTP with real workers:
tests/api/ai_seats/test_fair_share.py.
"""

from __future__ import annotations

import threading

import pytest

from services.api.ai_seats.dispatch import AiDispatcher
from services.api.ai_seats.driver import AiDriver
from services.api.ai_seats.hooks import DispatchHooks
from services.api.ai_seats.pacing import Pacer
from services.api.ai_seats.pauses import PauseGate
from services.api.games import commands
from services.api.games.commands import Collaborators
from services.api.games.record import GameRecord
from services.api.http import request_schemas
from services.api.store.memory_store import MemoryBackend, MemoryStore

from .test_driver import DEADLINE, Clock, RecordingCelery, decision

WATCH = 60.0
COMPUTERS = [{"type": "ai", "level": "basic"}] * 4


class Process:
    """One API process with a pause gate."""

    def __init__(
        self, backend: MemoryBackend, celery: RecordingCelery, clock: Clock, watch: float = WATCH, pace: float = 0.0
    ) -> None:
        self.store = MemoryStore(GameRecord.from_stored, backend, clock=clock)
        self.dispatcher = AiDispatcher(celery, self.store, DEADLINE, clock=clock)  # type: ignore[arg-type]
        self.gate = PauseGate(self.store, watch, self.dispatcher)
        self.pacer = Pacer(pace, clock=clock, thread=False)
        self.ctx = Collaborators(self.store, ai=DispatchHooks(self.dispatcher, self.gate, self.pacer))
        self.driver = AiDriver(self.ctx, self.dispatcher, None, 3, sweep_interval=1.0, clock=clock, gate=self.gate)

    def create(self, seats: list[dict] = COMPUTERS) -> str:
        body = request_schemas.CREATE_GAME_REQUEST.load({"seats": seats, "seed": 3})
        return commands.create_game(self.ctx, body)["game_id"]

    def answer(self, celery: RecordingCelery) -> bool:
        """The worker's answer to the last task sent, applied as the listener does."""
        return self.driver.apply_result(decision(celery.sent[-1]))


@pytest.fixture
def world() -> tuple[Process, RecordingCelery, Clock]:
    backend, celery, clock = MemoryBackend(), RecordingCelery(), Clock()
    return Process(backend, celery, clock), celery, clock


def test_a_watched_computer_only_game_plays_on(world):
    process, celery, clock = world
    game_id = process.create()  # its creation is a read
    for _ in range(5):
        clock.now += WATCH / 2
        process.gate.seen(process.store.load(game_id))  # someone reads it every half minute
        assert process.answer(celery)
    assert [t["version"] for t in celery.sent] == [1, 2, 3, 4, 5, 6]
    assert not process.store.backend.paused


def test_an_unwatched_game_pauses_the_sweep_leaves_it_and_a_read_resumes_it_once(world):
    process, celery, clock = world
    game_id = process.create()
    clock.now += WATCH + 1  # nobody has read it since its creation
    assert process.answer(celery)  # version 2 committed; its AI turn is held back
    assert [t["version"] for t in celery.sent] == [1]
    assert game_id in process.store.backend.paused

    clock.now += DEADLINE + 1  # the turn registered before the commit falls due: the sweep does not send it
    process.driver.sweep_once()
    assert [t["version"] for t in celery.sent] == [1] and game_id in process.store.backend.paused

    spectator = process.store.load(game_id)
    process.gate.seen(spectator)  # a spectator's read: the game goes on from version 2
    process.gate.seen(spectator)  # a second read finds nothing to resume
    assert [t["version"] for t in celery.sent] == [1, 2]
    assert not process.store.backend.paused
    assert process.answer(celery) and [t["version"] for t in celery.sent] == [1, 2, 3]


def test_a_read_between_the_commit_and_the_pause_check_is_never_lost(world):
    """The two steps are atomic on the game: a read either lands before the check (the turn is sent)
    or after it (the read takes the mark and sends the turn); never neither."""
    process, celery, clock = world
    game_id = process.create()
    clock.now += WATCH + 1
    process.gate.seen(process.store.load(game_id))  # the read lands first
    assert process.answer(celery)
    assert [t["version"] for t in celery.sent] == [1, 2], "watched at the check: sent"


def test_a_game_with_a_person_is_never_paused(world):
    process, celery, clock = world
    game_id = process.create([{"type": "human"}, *COMPUTERS[1:]])  # seat 1, a computer, bids first
    clock.now += 10 * WATCH  # nobody reads it: a person's game waits for nobody's read
    assert process.answer(celery) and process.answer(celery)
    assert [t["version"] for t in celery.sent] == [1, 2, 3]
    assert [t["queue"] for t in celery.sent] == ["ai.basic"] * 3, "a person waits: interactive queue"
    assert game_id not in process.store.backend.paused and not process.store.backend.watched


def test_with_pausing_off_nothing_is_held_back():
    backend, celery, clock = MemoryBackend(), RecordingCelery(), Clock()
    process = Process(backend, celery, clock, watch=0)
    process.create()
    clock.now += 100 * WATCH
    assert process.answer(celery) and len(celery.sent) == 2
    assert not backend.watched and not backend.paused


def test_a_game_whose_first_turn_is_overdue_is_not_kept_watched_by_the_sweep(world):
    """Only the creation's own commit counts as a read: the sweep re-sending a first turn does not."""
    process, celery, clock = world
    game_id = process.create()
    clock.now += WATCH + 1  # no worker answered, nobody read it
    process.driver.sweep_once()
    assert len(celery.sent) == 1 and game_id in process.store.backend.paused


def test_the_leave_that_leaves_a_game_to_computers_counts_as_a_read(world):
    process, celery, clock = world
    seats = [{"type": "human"}, *COMPUTERS[1:]]
    body = request_schemas.CREATE_GAME_REQUEST.load({"seats": seats, "seed": 3, "options": {"ai_takeover": "basic"}})
    created = commands.create_game(process.ctx, body)
    game_id, token = created["game_id"], created["seats"][0]["token"]
    clock.now += 10 * WATCH  # long unread: a game with a person needs no reads
    commands.leave_seat(process.ctx, game_id, 0, token)  # now computer-only: its leaver is looking at it
    assert process.store.backend.watched[game_id] == clock.now + WATCH
    assert process.answer(celery) and celery.sent[-1]["queue"] == "ai.bulk.basic"
    clock.now += WATCH + 1  # then nobody reads it
    assert process.answer(celery) and game_id in process.store.backend.paused


def test_a_computer_only_games_turns_are_paced_and_a_persons_are_not():
    backend, celery, clock = MemoryBackend(), RecordingCelery(), Clock()
    process = Process(backend, celery, clock, pace=0.25)
    bots = process.create()
    assert celery.sent == [] and process.pacer.held() == 1, "held for the pace, not sent"
    clock.now += 0.2
    assert process.pacer.run_due() == 0 and celery.sent == []
    clock.now += 0.05
    assert process.pacer.run_due() == 1 and [t["game_id"] for t in celery.sent] == [bots]
    assert celery.sent[0]["queue"].startswith("ai.bulk.")
    assert process.answer(celery) and len(celery.sent) == 1, "its next turn waits for the pace again"
    clock.now += 0.25
    assert process.pacer.run_due() == 1 and [t["version"] for t in celery.sent] == [1, 2]

    person = process.create([*COMPUTERS[:3], {"type": "human"}])  # seat 1, a computer, bids first
    assert celery.sent[-1]["game_id"] == person and process.pacer.held() == 0, "a person's game: sent at once"


def test_a_paced_turn_is_in_the_timers_so_a_process_that_dies_holding_it_loses_nothing():
    backend, celery, clock = MemoryBackend(), RecordingCelery(), Clock()
    dying = Process(backend, celery, clock, pace=0.25)
    game_id = dying.create()  # its turn registered and held; the process dies before the pace is over
    survivor = Process(backend, celery, clock, pace=0.25)
    clock.now += DEADLINE + 1
    survivor.driver.sweep_once()
    assert [t["game_id"] for t in celery.sent] == [game_id]


def test_a_paced_call_that_fails_is_logged_and_the_others_still_run(caplog):
    clock = Clock()
    pacer, ran = Pacer(1.0, clock=clock, thread=False), []

    def fail() -> None:
        raise RuntimeError("broker down")

    pacer.later(fail)
    pacer.later(lambda: ran.append(1))
    clock.now += 1
    assert pacer.run_due() == 2 and ran == [1]
    assert "the deadline sweep sends it" in caplog.text


def test_the_pacers_thread_runs_a_call_when_it_is_due():
    pacer, done = Pacer(0.01), threading.Event()
    pacer.later(done.set)
    assert done.wait(10), "the pacer's thread never ran the call"
