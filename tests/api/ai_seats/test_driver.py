"""The AI dispatcher, listener and deadline sweeper against the in-memory store.

No Redis, no worker: Celery is replaced by a recorder of sent tasks (with the
results a worker would have stored), the clock by a number the test moves.
The fallback after the last attempt is in tests/api/ai_seats/test_fallback.py.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import replace
from typing import Any

import pytest
import redis

from services.api.ai_seats.dispatch import TASK_NAME, AiDispatcher
from services.api.ai_seats.driver import CLAIM_LEASE_SECONDS, AiDriver
from services.api.ai_seats.hooks import DispatchHooks
from services.api.ai_seats.results import RESULT_PREFIX
from services.api.games import commands
from services.api.games.commands import Collaborators
from services.api.games.move_request import MoveRequest, parse_move
from services.api.games.record import GameRecord
from services.api.games.service_beat import ServiceBeat
from services.api.http import request_schemas
from services.api.problems import ApiError
from services.api.store.memory_store import MemoryBackend, MemoryStore
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

    def __init__(
        self,
        backend: MemoryBackend,
        celery: RecordingCelery,
        clock: Clock,
        max_attempts: int = 3,
        store: type[MemoryStore] = MemoryStore,
    ) -> None:
        self.store = store(GameRecord.from_stored, backend)
        self.dispatcher = AiDispatcher(celery, self.store, DEADLINE, clock=clock)  # type: ignore[arg-type]
        self.ctx = Collaborators(self.store, ai=DispatchHooks(self.dispatcher))
        self.driver = AiDriver(self.ctx, self.dispatcher, None, max_attempts, sweep_interval=1.0, clock=clock)


@pytest.fixture
def world() -> tuple[Process, Process, RecordingCelery, Clock]:
    backend, celery, clock = MemoryBackend(), RecordingCelery(), Clock()
    return Process(backend, celery, clock), Process(backend, celery, clock), celery, clock


def ai_game(process: Process, seats: list[dict] | None = None) -> str:
    body = request_schemas.CREATE_GAME_REQUEST.load(
        {"seats": seats or [{"type": "ai", "level": "basic"}] * 4, "seed": 3}
    )
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
    # four computers: a computer-only game, whose turns go to the level's bulk queue
    assert (task["game_id"], task["version"], task["seat"], task["queue"]) == (game_id, 1, 1, "ai.bulk.basic")
    assert task["view"]["you"] == 1 and not task["view"].get("history")
    pending = a.store.pending_turn(game_id)
    assert pending["task_id"] == task["task_id"] and pending["attempts"] == 1 and pending["bulk"]
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
    assert celery.sent == [] and a.store.due_turns(clock.now + CLAIM_LEASE_SECONDS, 10) == [], "nor leased again"


def test_a_turn_whose_claimer_died_before_acting_is_taken_over_when_its_lease_runs_out(world):
    """A process is killed between claiming an overdue turn and sending it: the claim was a lease, so another
    process's sweep sends the turn once the lease runs out (a removed deadline would leave the game waiting
    forever: nothing else sends its computer's turn)."""
    a, b, celery, clock = world
    game_id = ai_game(a, seats=[{"type": "human"}, {"type": "ai", "level": "pro"}] + [{"type": "human"}] * 2)
    celery.sent.clear()  # the task was lost (its worker died with it)
    clock.now += DEADLINE + 1
    lease = clock.now + max(DEADLINE, CLAIM_LEASE_SECONDS)
    assert a.store.claim_turn(game_id, clock.now, lease)  # as a's sweep does; then a is killed
    b.driver.sweep_once()
    assert celery.sent == [], "the lease holds it: no second process acts meanwhile"
    clock.now = lease
    b.driver.sweep_once()
    (task,) = celery.sent
    assert (task["game_id"], task["seat"], task["version"]) == (game_id, 1, 1)
    assert b.store.due_turns(float("inf"), 10) == [game_id] and b.store.due_turns(clock.now + DEADLINE - 1, 10) == []


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


# ---- what the result listener awaits: exactly this process's tasks ------------------------------------


class FakeListener:
    """The result listener as the dispatcher sees it: the task ids subscribed to, in order of events."""

    def __init__(self) -> None:
        self.awaited: set[str] = set()
        self.log: list[tuple[str, str]] = []

    def subscribe(self, task_id: str, wait: bool = True) -> bool:
        self.awaited.add(task_id)
        self.log.append(("subscribe" if wait else "subscribe-nowait", task_id))
        return True

    def unsubscribe(self, task_id: str) -> None:
        if task_id in self.awaited:
            self.awaited.discard(task_id)
            self.log.append(("unsubscribe", task_id))


@pytest.fixture
def listened(world):
    a, b, celery, clock = world
    listeners = FakeListener(), FakeListener()
    a.dispatcher.listen_with(listeners[0])
    b.dispatcher.listen_with(listeners[1])
    sent = celery.send_task

    def send_task(name: str, task_id: str, kwargs: dict[str, Any], queue: str) -> None:
        assert task_id in listeners[0].awaited | listeners[1].awaited, "sent before its result was subscribed"
        sent(name, task_id, kwargs, queue)

    celery.send_task = send_task  # type: ignore[method-assign]
    return a, b, celery, clock, listeners


def test_a_turn_is_subscribed_before_it_is_sent_and_unsubscribed_by_its_result(listened):
    a, _, celery, _, (la, lb) = listened
    game_id = ai_game(a)
    first = celery.sent[0]["task_id"]
    assert la.log == [("subscribe", first)] and lb.log == []
    a.driver._on_message(published(celery.sent[0]))
    second = celery.sent[1]["task_id"]
    assert la.log == [("subscribe", first), ("unsubscribe", first), ("subscribe", second)]
    assert la.awaited == a.dispatcher.awaited() == {second} and lb.awaited == set()
    assert a.store.load(game_id).version == 2


def test_a_result_the_sweeper_applies_is_no_longer_awaited(listened):
    a, _, celery, clock, (la, _) = listened
    game_id = ai_game(a)
    first = celery.sent[0]
    celery.results[first["task_id"]] = decision(first)  # published while the listener's connection was down
    clock.now += DEADLINE + 1
    a.driver.sweep_once()
    assert a.store.load(game_id).version == 2
    assert first["task_id"] not in la.awaited and la.awaited == {celery.sent[1]["task_id"]}


def test_tasks_awaited_past_the_last_attempt_are_forgotten(listened):
    a, b, celery, clock, (la, lb) = listened
    ai_game(a)
    b.dispatcher.abandon_result("hint-1")
    assert lb.log == [("subscribe-nowait", "hint-1")], "an abandoned hint never holds its request up"
    clock.now += DEADLINE * 3  # max_attempts (3) deadlines: re-sent by now, or played by the fallback
    b.driver.sweep_once()  # b claims the overdue turn and sends it again; a's first send is still awaited
    assert la.awaited == {celery.sent[0]["task_id"]} and lb.awaited == {celery.sent[1]["task_id"], "hint-1"}
    clock.now += 1
    a.driver.sweep_once()
    b.driver.sweep_once()
    assert la.awaited == set() == a.dispatcher.awaited()
    assert lb.awaited == {celery.sent[1]["task_id"]}, "the hint is forgotten, the fresh send still awaited"


def test_evicted_tasks_are_unsubscribed(listened, monkeypatch):
    a, _, celery, _, (la, _) = listened
    monkeypatch.setattr(AiDispatcher, "MAX_SENT", 2)
    monkeypatch.setattr(AiDispatcher, "MAX_ABANDONED", 1)
    for _ in range(3):
        ai_game(a)
    ids = [t["task_id"] for t in celery.sent]
    assert la.awaited == set(ids[1:]) and ("unsubscribe", ids[0]) in la.log
    a.dispatcher.abandon_result("hint-1")
    a.dispatcher.abandon_result("hint-2")
    assert "hint-1" not in la.awaited and "hint-2" in la.awaited


def test_an_abandoned_hint_is_deleted_on_arrival_and_unsubscribed(listened):
    a, _, _, _, (la, _) = listened
    a.dispatcher.abandon_result("hint-late")
    assert la.awaited == {"hint-late"}
    result = {"game_id": "g", "version": 3, "seat": 1, "move": {"bid": 3}}
    a.driver._on_message(json.dumps({"task_id": "hint-late", "status": "SUCCESS", "result": result}).encode())
    assert la.awaited == set() and a.dispatcher.awaited() == set()


def test_two_processes_on_one_bus_each_hear_only_their_own_results(world):
    """The real listener on the in-memory pub/sub: a worker publishes every result, each process
    receives exactly the results of the tasks it sent, and the games play on."""
    from services.api.ai_seats.results import ResultChannels, result_channel
    from services.api.store.memory_store import MemorySubscription

    from ..helpers import wait_until

    a, b, celery, _ = world
    bus = MemoryBackend()
    heard: dict[str, list[str]] = {"a": [], "b": []}
    running = []
    for name, process in (("a", a), ("b", b)):

        def on_message(data: bytes, name: str = name, process: Process = process) -> None:
            heard[name].append(json.loads(data)["task_id"])
            process.driver._on_message(data)

        channels = ResultChannels(lambda: MemorySubscription(bus), on_message, poll_seconds=0.05)
        process.dispatcher.listen_with(channels)
        channels.start()
        running.append(channels)
    try:
        games = {"a": ai_game(a), "b": ai_game(b)}
        for count in range(24):  # a worker answering every task as it comes
            wait_until(lambda count=count: len(celery.sent) > count, "no task sent", 10)
            task = celery.sent[count]
            with bus.changed:
                bus.publish(result_channel(task["task_id"]), published(task))
        wait_until(lambda: len(heard["a"]) + len(heard["b"]) == 24, "results not all heard", 10)
        sent_by = {t["task_id"]: ("a" if t["game_id"] == games["a"] else "b") for t in celery.sent}
        assert heard["a"] and heard["b"]
        assert all(sent_by[t] == "a" for t in heard["a"]) and all(sent_by[t] == "b" for t in heard["b"])
        assert a.store.load(games["a"]).version + b.store.load(games["b"]).version == 2 + 24
    finally:
        for channels in running:
            channels.stop()


# ---- a Redis master failing over under the timers or the game ----------------------------------------


class FailingOver(MemoryStore):
    """The memory store with parts of a Redis Cluster failing over, raising as redis-py does: the master of
    the timers' shard (``timers_down``), or the master of the game's slot for reads (``games_down``)."""

    timers_down = False
    games_down = False

    def _refused(self) -> None:
        raise redis.ConnectionError("Error 111 connecting to 127.0.0.1:7101. Connection refused.")

    def expect_turn(self, game_id: str, due: float, earlier: bool = False) -> None:
        if self.timers_down:
            self._refused()
        super().expect_turn(game_id, due, earlier)

    def record_turn(self, game_id: str, pending: dict[str, Any], due: float) -> None:
        if self.timers_down:
            self._refused()
        super().record_turn(game_id, pending, due)

    def load(self, game_id: str) -> GameRecord | None:
        if self.games_down:
            self._refused()
        return super().load(game_id)


def test_a_move_whose_computer_turn_cannot_be_registered_is_refused_not_left_without_a_deadline():
    """Committed without its deadline, the computer's turn would be neither sent (the dispatch records it in the
    same timers first) nor ever swept: the game would wait forever.  The move fails as the store does (503)."""
    celery, clock = RecordingCelery(), Clock()
    a = Process(MemoryBackend(), celery, clock, store=FailingOver)
    seats = [{"type": "ai", "level": "basic"}, {"type": "human"}] * 2
    body = request_schemas.CREATE_GAME_REQUEST.load({"seats": seats, "seed": 3})
    created = commands.create_game(a.ctx, body)
    game_id, token = created["game_id"], created["seats"][1]["token"]  # seat 1, a person, bids first
    bid = MoveRequest(token=token, move=parse_move("bid", {"bid": 3}), idempotency_key="k1", fingerprint="f")
    a.store.timers_down = True
    with pytest.raises(redis.ConnectionError):
        commands.make_move(a.ctx, game_id, bid)
    assert a.store.load(game_id).version == 1 and celery.sent == []
    a.store.timers_down = False  # the shard's replica is promoted: the person's retry goes through
    assert commands.make_move(a.ctx, game_id, bid)["version"] == 2
    (task,) = celery.sent
    assert (task["seat"], task["version"]) == (2, 2) and a.store.due_turns(clock.now + DEADLINE, 10) == [game_id]


def test_a_claimed_turn_whose_recovery_failed_is_due_again():
    """The claim takes the deadline off the timers; a recovery that fails on the game's store (its master failing
    over) must put it back, or nothing would ever send the turn."""
    celery, clock = RecordingCelery(), Clock()
    a = Process(MemoryBackend(), celery, clock, store=FailingOver)
    game_id = ai_game(a, seats=[{"type": "human"}, {"type": "ai", "level": "pro"}] + [{"type": "human"}] * 2)
    celery.sent.clear()  # the task was lost (its worker died with it)
    clock.now += DEADLINE + 1
    a.store.games_down = True
    a.driver.sweep_once()  # claimed, then the game's read fails
    a.store.games_down = False
    assert celery.sent == []
    clock.now += DEADLINE + 1
    a.driver.sweep_once()
    (task,) = celery.sent
    assert (task["game_id"], task["seat"]) == (game_id, 1)


# ---- a heartbeat that answers too late (a loaded machine) ---------------------------------------------------------


class LoadedMachine(MemoryStore):
    """The memory store on a machine that gets loaded in the middle of a sweep: once the store method named
    ``load_at`` is called, every read of a game or a pending turn takes ``LAG`` seconds and every beat answers
    ``LAG`` seconds late, so the beat the sweep started with goes stale and no new one is fresh
    (:meth:`ServiceBeat.current` refuses: ``503``)."""

    LAG = 0.6  # s: more than half the outage bound (1 s), the age of a beat ``current`` accepts
    clock: Clock
    load_at: str | None = None  # the method after which the machine is loaded (once)
    lag = 0.0

    def _slow(self, method: str) -> None:
        if method == self.load_at:
            self.lag, self.load_at = self.LAG, None
        self.clock.now += self.lag

    def claim_turn(self, game_id: str, now: float, lease_until: float) -> bool:
        claimed = super().claim_turn(game_id, now, lease_until)
        self._slow("claim_turn")
        return claimed

    def load(self, game_id: str) -> GameRecord | None:
        self._slow("load")
        return super().load(game_id)

    def pending_turn(self, game_id: str) -> dict[str, Any] | None:
        self._slow("pending_turn")
        return super().pending_turn(game_id)

    def beat(self, now_ms: int, outage_after_ms: int, keep_ms: int) -> tuple[bool, list[tuple[int, int]]]:
        self._slow("beat")
        return super().beat(now_ms, outage_after_ms, keep_ms)


class ResultBackend:
    """Celery's Redis result backend as the listener uses it: deleting a stored result (``RecordingCelery``'s)."""

    def __init__(self, celery: RecordingCelery) -> None:
        self.celery = celery

    def delete(self, key: str) -> None:
        self.celery.results.pop(key.removeprefix(RESULT_PREFIX), None)


def loaded_machine() -> tuple[Process, RecordingCelery, Clock, str]:
    """One process with a heartbeat (outages after 1 s) and a result backend, and a game with a clock (three
    people, so it is judged with the outages) whose computer in seat 1 is to bid, its task sent."""
    celery, clock = RecordingCelery(), Clock()
    a = Process(MemoryBackend(), celery, clock, store=LoadedMachine)
    a.store.clock = clock
    a.ctx = replace(a.ctx, outages=ServiceBeat(a.store, outage_after=1.0, grace=5.0, clock=clock))
    a.driver = AiDriver(a.ctx, a.dispatcher, ResultBackend(celery), 3, sweep_interval=1.0, clock=clock)  # type: ignore[arg-type]
    game_id = ai_game(a, seats=[{"type": "human"}, {"type": "ai", "level": "pro"}] + [{"type": "human"}] * 2)
    assert a.store.load(game_id).clock is not None and len(celery.sent) == 1
    return a, celery, clock, game_id


def test_a_claimed_turn_judged_while_the_heartbeat_answers_late_is_swept_again_not_dropped():
    """A timed game's overdue computer turn is judged with the outages known (a fresh beat).  When the beats answer
    too late, its recovery refuses (``503``) after the claim took the deadline off the timers: the deadline goes
    back, so the next sweep that can beat sends the turn.  Taken later, never dropped (else the game would wait
    forever: nothing else sends its computer's turn)."""
    a, celery, clock, game_id = loaded_machine()
    celery.sent.clear()  # the task was lost (its worker died with it)
    clock.now += DEADLINE + 1
    a.store.load_at = "claim_turn"
    with contextlib.suppress(ApiError):  # as the sweeper's thread: it logs a failed sweep and sweeps again
        a.driver.sweep_once()  # its own beat is fresh; then the claim, the load, and no fresh beat to judge by
    assert celery.sent == [] and a.store.lag == a.store.LAG, "judged while the beats answered late: nothing sent"
    a.store.lag = 0.0  # the load passes
    clock.now += 1.0  # the sweeper's next interval, not a decision deadline later
    a.driver.sweep_once()
    (task,) = celery.sent
    assert (task["game_id"], task["seat"], task["version"]) == (game_id, 1, 1)


def test_a_stored_decision_the_sweep_cannot_judge_now_is_applied_by_a_later_sweep():
    """The listener missed the decision; the sweep that claims its turn judges the turn with a fresh beat and finds
    the decision stored, but the beats answer too late by the time it is applied (``503``): the turn goes back on
    the timers and the next sweep applies that decision (else nothing would: the claim took the deadline)."""
    a, celery, clock, game_id = loaded_machine()
    (task,) = celery.sent
    celery.results[task["task_id"]] = decision(task)  # stored and published, unheard
    clock.now += DEADLINE + 1
    a.store.load_at = "pending_turn"
    with contextlib.suppress(ApiError):  # as the sweeper's thread: it logs a failed sweep and sweeps again
        a.driver.sweep_once()
    assert a.store.load(game_id).version == 1 and a.store.lag == a.store.LAG, "not applied under the load"
    a.store.lag = 0.0  # the load passes
    clock.now += 1.0  # the sweeper's next interval
    a.driver.sweep_once()
    record = a.store.load(game_id)
    assert record.version == 2 and record.state.bids[1] == task["view"]["legal"][0], "the stored decision"
    assert celery.sent == [task], "applied, not sent to a worker again (seat 2, a person, is to bid next)"


def test_a_published_decision_that_cannot_be_judged_now_is_kept_for_the_sweep():
    """The listener's application is judged with the outages known too.  Refused for now (``503``), the decision
    stays stored and its turn on the timers, so the sweep applies that same decision at the deadline: delayed,
    never dropped (nor sent to a worker again, a deadline later and an attempt nearer basic's fallback move)."""
    a, celery, clock, game_id = loaded_machine()
    (task,) = celery.sent
    celery.results[task["task_id"]] = decision(task)  # the worker stores its result, then publishes it
    clock.now += 1.0
    a.store.lag = a.store.LAG
    a.driver._on_message(published(task))
    assert a.store.load(game_id).version == 1 and task["task_id"] in celery.results, "not applied, kept"
    a.store.lag = 0.0
    clock.now += DEADLINE
    a.driver.sweep_once()
    record = a.store.load(game_id)
    assert record.version == 2 and record.state.bids[1] == task["view"]["legal"][0]
    assert celery.sent == [task], "the same decision applied, not sent to a worker again"
