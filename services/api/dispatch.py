"""Sending computer players' turns to the Celery workers.

:meth:`AiDispatcher.dispatch` sends the task ``ai.decide`` **by name** to the
queue ``ai.<level>`` with the seat's view as plain JSON (the API never imports
the worker; the code they share is the engine and services.players), and
records the pending turn in the store's ledger (``{task_id, version, seat,
level, sent_at, attempts}``, due by ``AI_DECISION_DEADLINE_SECONDS``), which
:class:`services.api.ai_driver.AiDriver` sweeps.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from celery import Celery

from services.engine import view
from services.players import DEFAULT_LEVEL, LEVEL_NAMES, queue_of

from .store import GameRecord, GameStore

log = logging.getLogger("spades.ai")
TASK_NAME = "ai.decide"


def decision_seed(game_seed: int, version: int, attempts: int) -> int:
    """Reproducible from the (secret) game seed, so a replay makes the same AI
    decisions, yet unpredictable to players, who never see that seed (unless
    they chose it: a seeded game says so, ``seeded: true``)."""
    digest = hashlib.sha256(f"{game_seed}:{version}:{attempts}".encode()).digest()
    return int.from_bytes(digest[:7], "big")


def _no_request() -> str:
    return "ai-driver"


class AiDispatcher:
    """Sends AI turns and remembers them until their move is applied.

    ``request_id`` names the request a send belongs to (the app factory passes
    one that reads Flask's request; outside a request, ``"ai-driver"``)."""

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
        # task id -> (level, sent_at) of the turns this process sent, awaiting results
        self._sent: OrderedDict[str, tuple[str, float]] = OrderedDict()
        self._sent_lock = threading.Lock()
        # task ids of hints whose requester stopped waiting: their late results are deleted on arrival
        self._abandoned: OrderedDict[str, None] = OrderedDict()

    def claim_result(self, task_id: str) -> tuple[str, float] | None:
        """``(level, sent_at)`` if this process sent ``task_id`` (and so applies
        its result), else None.

        Every API process hears every result; only the sender acts on it, so
        a decision costs one process's work, not all of theirs.  If the sender
        died meanwhile, the deadline sweep applies the stored result."""
        with self._sent_lock:
            return self._sent.pop(task_id, None)

    def abandon_result(self, task_id: str) -> None:
        """A task whose result nobody will read (a hint answered too late):
        the listener deletes it when it lands instead of leaving it to expire."""
        with self._sent_lock:
            self._abandoned[task_id] = None
            while len(self._abandoned) > 10_000:
                self._abandoned.popitem(last=False)

    def claim_abandoned(self, task_id: str) -> bool:
        with self._sent_lock:
            return self._abandoned.pop(task_id, False) is None

    def _remember_sent(self, task_id: str, level: str, sent_at: float) -> None:
        with self._sent_lock:
            self._sent[task_id] = (level, sent_at)
            while len(self._sent) > 100_000:  # results lost for good are swept, never claimed here
                self._sent.popitem(last=False)

    def expect(self, game_id: str) -> None:
        """Register that ``game_id`` will need an AI turn, due by the deadline."""
        self.store.expect_turn(game_id, self.clock() + self.deadline)

    def dispatch(self, record: GameRecord, seat: int, attempts: int = 1) -> str:
        """Send the turn of ``seat`` at ``record.version`` (recorded first, so a
        failed send is retried by the deadline sweep); its task id."""
        level = record.seats[seat].level or DEFAULT_LEVEL
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
        }
        self._remember_sent(task_id, level, now)
        self.store.record_turn(record.game_id, pending, now + self.deadline)
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
            queue=queue_of(level),
        )
        extra = {"request_id": request_id, "game_id": record.game_id, "seat": seat, "level": level, "task_id": task_id}
        log.info("ai turn sent", extra=extra)
        return task_id

    def stored_result(self, task_id: str) -> dict[str, Any] | None:
        """A finished task's decision from the result backend (a publication the listener missed)."""
        stored = self.celery.AsyncResult(task_id)
        return stored.result if stored.successful() and isinstance(stored.result, dict) else None

    def queue_depth(self) -> dict[str, int]:
        """Turns waiting in each AI queue (Celery's Redis transport keeps a list per queue)."""
        with self.celery.connection_for_read() as conn:
            client = conn.default_channel.client
            return {queue_of(level): int(client.llen(queue_of(level))) for level in LEVEL_NAMES}

    def pending(self, game_id: str) -> dict[str, Any] | None:
        return self.store.pending_turn(game_id)
