"""Sending computer players' turns to the Celery workers.

:meth:`AiDispatcher.dispatch` sends the task ``ai.decide`` **by name** to the
queue ``ai.<level>`` (``ai.bulk.<level>`` for a computer-only game, which workers
take only when no person's turn waits) with the seat's view as plain JSON (the API never imports
the worker; the code they share is the engine and services.computers), and
records the pending turn in the store's timers (``{task_id, version, seat,
level, sent_at, attempts}``, due by ``AI_DECISION_DEADLINE_SECONDS``), which
:class:`services.api.ai_seats.driver.AiDriver` sweeps.

It also keeps what the process's result listener awaits: the tasks it sent
and the hints it abandoned.  With a listener (:meth:`AiDispatcher.listen_with`,
a :class:`services.api.ai_seats.results.ResultChannels`), each is subscribed to on its
own result channel (a task is sent once that is confirmed) and unsubscribed
from as soon as it leaves these books: claimed, evicted, or older than the
listener's horizon (:meth:`AiDispatcher.forget_before`).

With several broker nodes (``AI_BROKER_URLS``, :mod:`services.api.ai_seats.brokers`) it holds one Celery
app and one result listener per node, and sends each game's turns to the node its id maps to.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol

from celery import Celery

from services.api.ai_seats.brokers import connect_once, node_of
from services.api.ai_seats.results import ResultWaiter
from services.api.games.clocks import stand_in_level
from services.api.games.record import GameRecord
from services.api.metrics import AI_DECISIONS_SENT
from services.api.store.protocol import GameStore
from services.computers import WORKER_QUEUES, queue_of
from services.engine import Seed, view

log = logging.getLogger(__name__)
TASK_NAME = "ai.decide"


def decision_seed(game_seed: Seed, version: int, attempts: int) -> int:
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

    ``celery`` is one app per broker node, in ``AI_BROKER_URLS`` order (or the one app);
    ``request_id`` names the request a send belongs to (the app factory passes
    one that reads Flask's request; outside a request, ``"ai-driver"``)."""

    MAX_SENT = 100_000  # turns awaited at most (the oldest are evicted: the sweep finds their results)
    MAX_ABANDONED = 10_000

    def __init__(
        self,
        celery: Celery | Sequence[Celery],
        store: GameStore,
        deadline: float,
        request_id: Callable[[], str] = _no_request,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.nodes: list[Celery] = list(celery) if isinstance(celery, (list, tuple)) else [celery]
        self.celery = self.nodes[0]  # the one node's app where a caller names no game
        self.store = store
        self.deadline = deadline
        self.request_id = request_id
        self.clock = clock
        # task id -> (level, sent_at, bulk) of the turns this process sent, awaiting results
        self._sent: OrderedDict[str, Sent] = OrderedDict()
        self._sent_lock = threading.Lock()
        # task id -> abandoned at, of hints whose requester stopped waiting: deleted on arrival
        self._abandoned: OrderedDict[str, float] = OrderedDict()
        self.listeners: dict[int, ResultListener] = {}

    @property
    def listener(self) -> ResultListener | None:
        """The first node's listener (the only one with a single node)."""
        return self.listeners.get(0)

    @listener.setter
    def listener(self, listener: ResultListener | None) -> None:
        self.listen_with(listener)

    def listen_with(self, listener: ResultListener | None, node: int = 0) -> None:
        """The result listener of broker node ``node``: what this dispatcher awaits there is subscribed to there."""
        if listener is None:
            self.listeners.pop(node, None)
        else:
            self.listeners[node] = listener

    def node_for(self, game_id: str) -> int:
        """The broker node carrying ``game_id``'s turns (:func:`services.api.ai_seats.brokers.node_of`)."""
        return node_of(game_id, len(self.nodes))

    def _unsubscribe(self, task_ids: list[str]) -> None:
        """Never called under ``_sent_lock``: the listener's reader calls in here holding none of its own.
        Every node's listener is told (a no-op where the task is not awaited): the books keep no node."""
        for listener in list(self.listeners.values()):
            for task_id in task_ids:
                listener.unsubscribe(task_id)

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

    def abandon_result(self, task_id: str, node: int = 0) -> None:
        """A task whose result nobody will read (a hint answered too late, sent to broker node ``node``):
        that node's listener subscribes to it and deletes it when it lands instead of
        leaving it to expire (one that lands before the subscription does expires)."""
        with self._sent_lock:
            self._abandoned[task_id] = self.clock()
            evicted = [self._abandoned.popitem(last=False)[0] for _ in range(len(self._abandoned) - self.MAX_ABANDONED)]
        self._unsubscribe(evicted)
        listener = self.listeners.get(node)
        if listener is not None:
            listener.subscribe(task_id, wait=False)  # the requester is answered now, not held up

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

    def expect(self, game_id: str, earlier: bool = False) -> None:
        """Register that ``game_id`` will need an AI turn, due by the deadline (``earlier``: unless sooner)."""
        self.store.expect_turn(game_id, self.clock() + self.deadline, earlier)

    def dispatch(self, record: GameRecord, seat: int, attempts: int = 1) -> str:
        """Send the turn of ``seat`` at ``record.version`` to its game's node (recorded first, so a
        failed send is retried by the deadline sweep, and after ``AI_MAX_ATTEMPTS`` played by the fallback:
        a broker node that is down raises here, and the caller's move stays committed); its task id."""
        level = stand_in_level(record, seat)  # an ai seat's level; a person's turn: the game's takeover level
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
        node = self.node_for(record.game_id)
        self._remember_sent(task_id, level, now, bulk)
        self.store.record_turn(record.game_id, pending, now + self.deadline)
        listener = self.listeners.get(node)
        if listener is not None:
            # Confirmed before sending, so the result can't be published unheard.  Unconfirmed in time (the
            # listener's connection is down): sent anyway, and the deadline sweep applies the stored result.
            listener.subscribe(task_id)
        ai_view = view(record.state, seat, history=False)  # no strategy reads finished rounds: most of the bytes
        self.nodes[node].send_task(
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
        extra["task_id"], extra["node"] = task_id, node
        log.info("ai turn sent", extra=extra)
        return task_id

    def stored_result(self, task_id: str, game_id: str | None = None) -> dict[str, Any] | None:
        """A finished task's decision from its node's result backend (a publication the listener missed);
        ``game_id`` names the node (without it, the first)."""
        celery = self.nodes[self.node_for(game_id)] if game_id is not None else self.celery
        stored = celery.AsyncResult(task_id)
        return stored.result if stored.successful() and isinstance(stored.result, dict) else None

    def queue_depth(self) -> dict[tuple[str, str], int]:
        """Turns waiting in each AI queue of each node, ``(node, queue) -> n`` (Celery's Redis transport
        keeps a list per queue).  A node that does not answer is left out (its gauge goes missing)."""
        depths: dict[tuple[str, str], int] = {}
        failed: Exception | None = None
        for node, celery in enumerate(self.nodes):
            try:
                with celery.connection_for_read() as conn:
                    connect_once(conn)
                    pipe = conn.default_channel.client.pipeline(transaction=False)
                    for queue in WORKER_QUEUES:
                        pipe.llen(queue)
                    counts = pipe.execute()
            except Exception as error:  # one node down must not hide the others' depths
                failed = error
                continue
            depths.update({(str(node), queue): int(n) for queue, n in zip(WORKER_QUEUES, counts, strict=True)})
        if failed is not None and not depths:
            raise failed
        return depths

    def pending(self, game_id: str) -> dict[str, Any] | None:
        return self.store.pending_turn(game_id)
