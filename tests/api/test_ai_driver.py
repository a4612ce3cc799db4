"""The AI dispatcher, listener and deadline sweeper against the in-memory store.

No Redis, no worker: Celery is replaced by a recorder of sent tasks (with the
results a worker would have stored), the clock by a number the test moves.
The fallback after the last attempt is in tests/api/test_fallback.py.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from services.api import commands, schemas
from services.api.ai_driver import AiDriver
from services.api.ai_hook import DispatchHooks
from services.api.commands import Collaborators
from services.api.dispatch import TASK_NAME, AiDispatcher
from services.api.memory_store import MemoryBackend, MemoryStore
from services.engine import turn

DEADLINE = 10.0


class StoredResult:
    def __init__(self, result: dict[str, Any] | None) -> None:
        self.result = result

    def successful(self) -> bool:
        return self.result is not None


class RecordingCelery:
    """Celery's producer side as the dispatcher uses it: tasks sent, results stored."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.results: dict[str, dict[str, Any]] = {}

    def send_task(self, name: str, task_id: str, kwargs: dict[str, Any], queue: str) -> None:
        assert name == TASK_NAME
        self.sent.append({"task_id": task_id, "queue": queue, **kwargs})

    def AsyncResult(self, task_id: str) -> StoredResult:  # Celery's method name
        return StoredResult(self.results.get(task_id))


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Process:
    """One API process: its store view, dispatcher and driver over a shared backend."""

    def __init__(self, backend: MemoryBackend, celery: RecordingCelery, clock: Clock, max_attempts: int = 3) -> None:
        self.store = MemoryStore(backend)
        self.dispatcher = AiDispatcher(celery, self.store, DEADLINE, clock=clock)  # type: ignore[arg-type]
        self.ctx = Collaborators(self.store, ai=DispatchHooks(self.dispatcher))
        self.driver = AiDriver(self.ctx, self.dispatcher, None, max_attempts, sweep_interval=1.0, clock=clock)


@pytest.fixture
def world() -> tuple[Process, Process, RecordingCelery, Clock]:
    backend, celery, clock = MemoryBackend(), RecordingCelery(), Clock()
    return Process(backend, celery, clock), Process(backend, celery, clock), celery, clock


def ai_game(process: Process, seats: list[dict] | None = None) -> str:
    body = schemas.CREATE_GAME_REQUEST.load({"seats": seats or [{"type": "ai", "level": "basic"}] * 4, "seed": 3})
    return commands.create_game(process.ctx, body)["game_id"]


def decision(task: dict[str, Any]) -> dict[str, Any]:
    """What a worker answers for a sent task: the seat's first legal move."""
    legal = task["view"]["legal"]
    move = {"bid": legal[0]} if task["view"]["phase"] == "bidding" else {"card": legal[0]}
    return {key: task[key] for key in ("game_id", "version", "seat")} | {"move": move}


def published(task: dict[str, Any], status: str = "SUCCESS") -> bytes:
    return json.dumps({"task_id": task["task_id"], "status": status, "result": decision(task)}).encode()


def test_a_committed_ai_turn_is_registered_and_sent_with_the_seats_view(world):
    a, _, celery, clock = world
    game_id = ai_game(a)
    (task,) = celery.sent
    assert (task["game_id"], task["version"], task["seat"], task["queue"]) == (game_id, 1, 1, "ai.basic")
    assert task["view"]["you"] == 1 and not task["view"].get("history")
    pending = a.store.pending_turn(game_id)
    assert pending["task_id"] == task["task_id"] and pending["attempts"] == 1
    assert a.store.due_turns(clock.now + DEADLINE, 10) == [game_id]
    assert a.store.due_turns(clock.now + DEADLINE - 1, 10) == []


def test_the_sender_applies_a_published_decision_and_sends_the_next_turn(world):
    a, b, celery, _ = world
    game_id = ai_game(a)
    first = celery.sent[0]
    b.driver._on_message(published(first))  # another process hears it too, and leaves it alone
    assert b.store.load(game_id).version == 1
    a.driver._on_message(published(first))
    record = a.store.load(game_id)
    assert record.version == 2 and record.state.bids[1] is not None
    assert [t["version"] for t in celery.sent] == [1, 2]
    a.driver._on_message(published(first))  # a duplicate publication: claimed once, never applied twice
    assert a.store.load(game_id).version == 2


def test_a_failed_task_is_left_to_the_sweeper(world):
    a, _, celery, _ = world
    game_id = ai_game(a)
    a.driver._on_message(published(celery.sent[0], status="FAILURE"))
    assert a.store.load(game_id).version == 1 and len(celery.sent) == 1


def test_a_stale_decision_is_dropped(world):
    a, _, celery, _ = world
    game_id = ai_game(a)
    first = celery.sent[0]
    stale = decision(first) | {"version": 0}
    assert not a.driver.apply_result(stale)
    assert a.driver.apply_result(decision(first))
    assert not a.driver.apply_result(decision(first)), "the version moved on: the same decision is not applied again"
    assert a.store.load(game_id).version == 2


def test_only_overdue_turns_are_swept_and_each_by_one_process(world):
    a, b, celery, clock = world
    game_id = ai_game(a)
    a.driver.sweep_once()
    b.driver.sweep_once()
    assert len(celery.sent) == 1, "not overdue yet"
    clock.now += DEADLINE + 1
    b.driver.sweep_once()
    a.driver.sweep_once()
    assert [(t["version"], t["seed"] != celery.sent[0]["seed"]) for t in celery.sent] == [(1, False), (1, True)]
    assert a.store.pending_turn(game_id)["attempts"] == 2


def test_the_sweeper_applies_a_stored_result_whose_publication_was_missed(world):
    a, b, celery, clock = world
    game_id = ai_game(a)
    first = celery.sent[0]
    celery.results[first["task_id"]] = decision(first)  # the worker answered; nobody heard it
    clock.now += DEADLINE + 1
    b.driver.sweep_once()  # the sender may be dead: any process applies it
    assert b.store.load(game_id).version == 2
    assert [t["version"] for t in celery.sent] == [1, 2]


def test_a_turn_registered_but_never_sent_is_sent_by_the_sweeper(world):
    a, _, celery, clock = world
    game_id = ai_game(a, seats=[{"type": "human"}, {"type": "ai", "level": "pro"}] + [{"type": "human"}] * 2)
    a.store.backend.pending.clear()  # the process that committed died before sending
    celery.sent.clear()
    clock.now += DEADLINE + 1
    a.driver.sweep_once()
    (task,) = celery.sent
    assert (task["game_id"], task["seat"], task["queue"]) == (game_id, 1, "ai.pro")
    assert a.store.pending_turn(game_id)["attempts"] == 1


def test_an_overdue_registration_for_a_turn_already_played_sends_nothing(world):
    a, _, celery, clock = world
    game_id = ai_game(a, seats=[{"type": "human"}] * 4)
    a.store.expect_turn(game_id, clock.now)  # a registration whose write lost its race
    a.store.expect_turn("gone", clock.now)  # a game that expired
    clock.now += 1
    a.driver.sweep_once()
    assert celery.sent == [] and a.store.due_turns(clock.now, 10) == []


def test_a_human_turn_after_the_ai_moved_is_not_swept_into_an_ai_move(world):
    a, _, celery, clock = world
    game_id = ai_game(a, seats=[{"type": "human"}, {"type": "ai", "level": "basic"}] + [{"type": "human"}] * 2)
    a.driver._on_message(published(celery.sent[0]))  # seat 1 bid: seat 2, a human, is to move
    record = a.store.load(game_id)
    assert record.version == 2 and turn(record.state) == 2
    clock.now += DEADLINE + 1
    a.driver.sweep_once()
    assert a.store.load(game_id).version == 2 and len(celery.sent) == 1


def test_four_ai_seats_play_a_round_through_listener_and_sweeper(world):
    a, b, celery, clock = world
    game_id = ai_game(a)
    while (record := a.store.load(game_id)).state.round == 1:
        task = celery.sent[-1]
        if len(celery.sent) % 5 == 0:  # every fifth answer is missed and found by the sweeper
            celery.results[task["task_id"]] = decision(task)
            clock.now += DEADLINE + 1
            b.driver.sweep_once()
        else:
            for process in (a, b):  # every process hears it; the one that sent it applies it
                process.driver._on_message(published(task))
        assert a.store.load(game_id).version == record.version + 1
    final = a.store.load(game_id)
    assert final.state.round == 2 and final.version == 1 + 4 + 52  # every bid and card, each applied once
