"""Sending computer players' turns to the Celery workers.

:meth:`AiDispatcher.dispatch` sends the task ``ai.decide`` **by name** to the
queue ``ai.<level>`` (``ai.bulk.<level>`` for a computer-only game, which workers
take only when no person's turn waits) with the seat's view as plain JSON (the API never imports
the worker; the code they share is the engine and services.players), and
records the pending turn in the store's ledger (``{task_id, version, seat,
level, sent_at, attempts}``, due by ``AI_DECISION_DEADLINE_SECONDS``), which
:class:`services.api.ai_seats.driver.AiDriver` sweeps.

It also keeps what the process's result listener awaits: the tasks it sent
and the hints it abandoned.  With a listener (:meth:`AiDispatcher.listen_with`,
a :class:`services.api.ai_seats.results.ResultChannels`), each is subscribed to on its
own result channel (a task is sent once that is confirmed) and unsubscribed
from as soon as it leaves these books: claimed, evicted, or older than the
listener's horizon (:meth:`AiDispatcher.forget_before`).
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from celery import Celery

from services.api.ai_seats.results import ResultWaiter
from services.api.metrics import AI_DECISIONS_SENT
from services.api.store.protocol import GameRecord, GameStore
from services.engine import view
from services.players import DEFAULT_LEVEL, WORKER_QUEUES, queue_of

log = logging.getLogger(__name__)
TASK_NAME = "ai.decide"


def decision_seed(game_seed: int, version: int, attempts: int) -> int:
    """Reproducible from the (secret) game seed, so a replay makes the same AI
    decisions, yet unpredictable to players, who never see that seed (unless
    they chose it: a seeded game says so, ``seeded: true``)."""
    digest = hashlib.sha256(f"{game_seed}:{version}:{attempts}".encode()).digest()
    return int.from_bytes(digest[:7], "big")


def _no_request() -> str:
    return "ai-driver"


class Sent(NamedTuple):
    """A turn this process sent and awaits: its level, when, and whether it went to a bulk queue."""

    level: str
    sent_at: float
    bulk: bool = False


class ResultListener(Protocol):
    """What the dispatcher needs of :class:`services.api.ai_seats.results.ResultChannels`."""

    def subscribe(self, task_id: str, wait: bool = True, waiter: ResultWaiter | None = None) -> bool: ...

    def unsubscribe(self, task_id: str) -> None: ...

    def release(self, task_id: str) -> bytes | None: ...


class AiDispatcher:
    """Sends AI turns and remembers them until their move is applied.

    ``request_id`` names the request a send belongs to (the app factory passes
    one that reads Flask's request; outside a request, ``"ai-driver"``)."""

    MAX_SENT = 100_000  # turns awaited at most (the oldest are evicted: the sweep finds their results)
    MAX_ABANDONED = 10_000

    def __init__(
        self,
        celery: Celery,
        store: GameStore,
        deadline: float,
        request_id: Callable[[], str] = _no_request,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.celery = celery
        self.store = store
        self.deadline = deadline
        self.request_id = request_id
        self.clock = clock
        # task id -> (level, sent_at, bulk) of the turns this process sent, awaiting results
        self._sent: OrderedDict[str, Sent] = OrderedDict()
        self._sent_lock = threading.Lock()
        # task id -> abandoned at, of hints whose requester stopped waiting: deleted on arrival
        self._abandoned: OrderedDict[str, float] = OrderedDict()
        self.listener: ResultListener | None = None

    def listen_with(self, listener: ResultListener | None) -> None:
        """The process's result listener: what this dispatcher awaits is subscribed to there."""
        self.listener = listener

    def _unsubscribe(self, task_ids: list[str]) -> None:
        """Never called under ``_sent_lock``: the listener's reader calls in here holding none of its own."""
        if self.listener is not None:
            for task_id in task_ids:
                self.listener.unsubscribe(task_id)

    def claim_result(self, task_id: str) -> Sent | None:
        """``(level, sent_at, bulk)`` if this process sent ``task_id`` (and so applies
        its result), else None; either way the process stops awaiting it.

        The listener is subscribed only to the results of tasks this process
        sent (and of the hints it abandoned), so a decision costs one
        process's work and one delivery, however many processes there are.
        If the sender died meanwhile, the deadline sweep applies the stored
        result."""
        with self._sent_lock:
            sent = self._sent.pop(task_id, None)
        self._unsubscribe([task_id])
        return sent

    def abandon_result(self, task_id: str) -> None:
        """A task whose result nobody will read (a hint answered too late):
        the listener subscribes to it and deletes it when it lands instead of
        leaving it to expire (one that lands before the subscription does expires)."""
        with self._sent_lock:
            self._abandoned[task_id] = self.clock()
            evicted = [self._abandoned.popitem(last=False)[0] for _ in range(len(self._abandoned) - self.MAX_ABANDONED)]
        self._unsubscribe(evicted)
        if self.listener is not None:
            self.listener.subscribe(task_id, wait=False)  # the requester is answered now, not held up

    def claim_abandoned(self, task_id: str) -> bool:
        with self._sent_lock:
            abandoned = self._abandoned.pop(task_id, None) is not None
        self._unsubscribe([task_id])
        return abandoned

    def _remember_sent(self, task_id: str, level: str, sent_at: float, bulk: bool = False) -> None:
        with self._sent_lock:
            self._sent[task_id] = Sent(level, sent_at, bulk)
            evicted = [self._sent.popitem(last=False)[0] for _ in range(len(self._sent) - self.MAX_SENT)]
        self._unsubscribe(evicted)

    def forget_before(self, cutoff: float) -> int:
        """Stop awaiting tasks sent (hints abandoned) before ``cutoff``: their turns were applied by
        another process's sweep, re-sent or played by the fallback.  How many were dropped."""
        dropped: list[str] = []
        with self._sent_lock:  # both books are in the order of their times
            while self._sent and next(iter(self._sent.values()))[1] < cutoff:
                dropped.append(self._sent.popitem(last=False)[0])
            while self._abandoned and next(iter(self._abandoned.values())) < cutoff:
                dropped.append(self._abandoned.popitem(last=False)[0])
        self._unsubscribe(dropped)
        return len(dropped)

    def awaited(self) -> set[str]:
        """Task ids whose results this process awaits (tests)."""
        with self._sent_lock:
            return set(self._sent) | set(self._abandoned)

    def expect(self, game_id: str) -> None:
        """Register that ``game_id`` will need an AI turn, due by the deadline."""
        self.store.expect_turn(game_id, self.clock() + self.deadline)

    def dispatch(self, record: GameRecord, seat: int, attempts: int = 1) -> str:
        """Send the turn of ``seat`` at ``record.version`` (recorded first, so a
        failed send is retried by the deadline sweep); its task id."""
        level = record.seats[seat].level or DEFAULT_LEVEL
        bulk = record.computer_only  # nobody waits on it: after every waiting person's turn
        request_id = self.request_id()
        task_id = str(uuid.uuid4())
        now = self.clock()
        pending = {
            "task_id": task_id,
            "version": record.version,
            "seat": seat,
            "level": level,
            "sent_at": now,
            "attempts": attempts,
            "bulk": bulk,
        }
        self._remember_sent(task_id, level, now, bulk)
        self.store.record_turn(record.game_id, pending, now + self.deadline)
        if self.listener is not None:
            # Confirmed before sending, so the result can't be published unheard.  Unconfirmed in time (the
            # listener's connection is down): sent anyway, and the deadline sweep applies the stored result.
            self.listener.subscribe(task_id)
        ai_view = view(record.state, seat, history=False)  # no strategy reads finished rounds: most of the bytes
        self.celery.send_task(
            TASK_NAME,
            task_id=task_id,
            kwargs={
                "view": ai_view,
                "level": level,
                "game_id": record.game_id,
                "version": record.version,
                "seat": seat,
                "seed": decision_seed(record.state.seed, record.version, attempts),
                "request_id": request_id,
            },
            queue=queue_of(level, bulk),
        )
        AI_DECISIONS_SENT.labels(level).inc()
        extra = {"request_id": request_id, "game_id": record.game_id, "seat": seat, "level": level, "bulk": bulk}
        extra["task_id"] = task_id
        log.info("ai turn sent", extra=extra)
        return task_id

    def stored_result(self, task_id: str) -> dict[str, Any] | None:
        """A finished task's decision from the result backend (a publication the listener missed)."""
        stored = self.celery.AsyncResult(task_id)
        return stored.result if stored.successful() and isinstance(stored.result, dict) else None

    def queue_depth(self) -> dict[str, int]:
        """Turns waiting in each AI queue, both classes (Celery's Redis transport keeps a list per queue)."""
        with self.celery.connection_for_read() as conn:
            pipe = conn.default_channel.client.pipeline(transaction=False)
            for queue in WORKER_QUEUES:
                pipe.llen(queue)
            return {queue: int(n) for queue, n in zip(WORKER_QUEUES, pipe.execute(), strict=True)}

    def pending(self, game_id: str) -> dict[str, Any] | None:
        return self.store.pending_turn(game_id)
