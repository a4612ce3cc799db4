"""Computer players' turns: sent to the Celery workers, applied when they land.

* :func:`dispatch` sends the task ``ai.decide`` **by name** to the queue
  ``ai.<level>`` with the seat's view as plain JSON (the API never imports the
  worker; the only code they share is the engine), and records the pending
  turn: ``game:{id}:ai`` holds ``{task_id, version, seat, level, sent_at,
  attempts}``, and the global sorted set ``ai:pending`` holds the game id
  scored by its deadline.
* :class:`AiDriver` (one per API process, two daemon threads) brings the
  decisions back through the task results:

  - the *listener* subscribes to ``celery-task-meta-*``, which Celery's Redis
    result backend PUBLISHes the moment a task finishes; the process that sent
    the task applies the decision with the same compare-and-set as a human
    move (a stale or duplicate result fails the version check and is dropped
    harmlessly), the others ignore it;
  - the *sweeper* claims pending turns whose deadline has passed (the
    ``ZREM`` that removes one is the claim, so exactly one API process acts),
    applies the stored result if the publication was missed (or its sender
    died), and otherwise sends the task again.  A turn is registered in
    ``ai:pending`` before its version is even committed
    (:func:`services.api.ai_hook.before_commit`), so a game never stalls when
    a worker or an API process dies mid-decision:
    ``AI_DECISION_DEADLINE_SECONDS`` (default 10) bounds the delay.  After
    ``AI_MAX_ATTEMPTS`` failed attempts the API plays basic's move for the seat
    itself (:func:`services.players.basic_move`: pure, no worker needed, and
    never a nil bid unless nil is the only legal bid), so a broken worker pool
    can't freeze a game forever (logged and counted).
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
import uuid
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import redis
from celery import Celery
from flask import Flask, has_request_context

from services.engine import view
from services.engine.game import Bid
from services.players import DEFAULT_LEVEL, LEVEL_NAMES, basic_move, queue_of

from .ai_hook import ai_seat_to_move
from .observability import AI_DECISION_SECONDS, AI_REISSUED
from .observability import request_id as current_request_id

if TYPE_CHECKING:
    from .store import GameRecord, GameStore

log = logging.getLogger("spades.ai")
TASK_NAME = "ai.decide"
PENDING_KEY = "ai:pending"
RESULT_CHANNELS = "celery-task-meta-*"


def pending_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:ai"


def decision_seed(game_seed: int, version: int, attempts: int) -> int:
    """Reproducible from the (secret) game seed, so a replay makes the same AI
    decisions, yet unpredictable to players, who never see that seed."""
    digest = hashlib.sha256(f"{game_seed}:{version}:{attempts}".encode()).digest()
    return int.from_bytes(digest[:7], "big")


def celery_init_app(app: Flask) -> Celery:
    """Flask's Celery pattern, producer side: the API only sends tasks."""
    config = app.config
    broker = config["CELERY_BROKER_URL"] or config["REDIS_URL"]
    backend = config["CELERY_RESULT_BACKEND"] or config["REDIS_URL"]
    timeout = float(config["REDIS_SOCKET_TIMEOUT"])
    celery = Celery(app.name, broker=broker, backend=backend, set_as_current=False)
    celery.conf.update(
        broker_connection_retry_on_startup=True,
        broker_connection_timeout=timeout,
        broker_transport_options={"socket_timeout": timeout, "socket_connect_timeout": timeout},
        redis_socket_timeout=timeout,
        redis_socket_connect_timeout=timeout,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
    )
    app.extensions["celery"] = celery
    return celery


class AiDispatcher:
    """Sends AI turns and remembers them until their move is applied."""

    def __init__(self, celery: Celery, client: redis.Redis, deadline: float, ttl: int) -> None:
        self.celery = celery
        self.client = client
        self.deadline = deadline
        self.ttl = ttl
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
        self.client.zadd(PENDING_KEY, {game_id: time.time() + self.deadline})

    def dispatch(self, record: GameRecord, seat: int, attempts: int = 1) -> None:
        """Send the turn of ``seat`` at ``record.version`` (recorded first, so a
        failed send is retried by the deadline sweep)."""
        level = record.seats[seat].level or DEFAULT_LEVEL
        request_id = current_request_id() if has_request_context() else "ai-driver"
        task_id = str(uuid.uuid4())
        pending = {
            "task_id": task_id,
            "version": record.version,
            "seat": seat,
            "level": level,
            "sent_at": time.time(),
            "attempts": attempts,
        }
        self._remember_sent(task_id, level, pending["sent_at"])
        pipe = self.client.pipeline(transaction=False)
        pipe.set(pending_key(record.game_id), json.dumps(pending), ex=self.ttl)
        pipe.zadd(PENDING_KEY, {record.game_id: time.time() + self.deadline})
        pipe.execute()
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
        log.info(
            "ai turn sent",
            extra={
                "request_id": request_id,
                "game_id": record.game_id,
                "seat": seat,
                "level": level,
                "task_id": task_id,
            },
        )

    def queue_depth(self) -> dict[str, int]:
        """Turns waiting in each AI queue (Celery's Redis transport keeps a list per queue)."""
        with self.celery.connection_for_read() as conn:
            client = conn.default_channel.client
            return {queue_of(level): int(client.llen(queue_of(level))) for level in LEVEL_NAMES}

    def pending(self, game_id: str) -> dict[str, Any] | None:
        raw = self.client.get(pending_key(game_id))
        return json.loads(raw) if raw else None


def move_from_result(result: dict[str, Any]) -> Any:
    from services.engine import Play, parse_card

    move = result["move"]
    return Bid(int(move["bid"])) if "bid" in move else Play(parse_card(move["card"]))


def fallback_move(record: GameRecord, seat: int) -> dict[str, Any]:
    """Basic's move for the seat: the last resort when no worker answers.

    Not "the lowest legal move": while bidding that is nil, a promise to take
    no trick that a strong hand then breaks for -100.  Basic's rule reads only
    the seat's own view, like every computer level."""
    return basic_move(view(record.state, seat, history=False))


class AiDriver:
    """Applies AI decisions as they land and re-sends lost ones (see module doc)."""

    def __init__(self, app: Flask, store: GameStore, dispatcher: AiDispatcher) -> None:
        self.app = app
        self.store = store
        self.dispatcher = dispatcher
        self.max_attempts = int(app.config["AI_MAX_ATTEMPTS"])
        self.sweep_interval = float(app.config["AI_SWEEP_INTERVAL_SECONDS"])
        backend = app.config["CELERY_RESULT_BACKEND"] or app.config["REDIS_URL"]
        self.results = redis.Redis.from_url(backend, socket_timeout=None, socket_connect_timeout=2)
        self._stop = threading.Event()

    def start(self) -> None:
        for target, name in ((self._listen, "ai-listener"), (self._sweep, "ai-sweeper")):
            threading.Thread(target=target, name=name, daemon=True).start()

    def stop(self) -> None:
        self._stop.set()

    # ---- applying a decision ---------------------------------------------------

    def apply_result(self, result: dict[str, Any], sent: tuple[str, float] | None = None) -> bool:
        """Apply a decision; ``sent`` is its ``(level, sent_at)`` when this
        process sent it (else the recorded pending turn is read for the metric)."""
        from . import games

        game_id, version, seat = result["game_id"], int(result["version"]), int(result["seat"])
        if sent is None:
            pending = self.dispatcher.pending(game_id)
            if pending is not None and pending["version"] == version:
                sent = (pending["level"], pending["sent_at"])
        applied = games.apply_ai_move(self.store, game_id, version, seat, move_from_result(result))
        if applied and sent is not None:
            AI_DECISION_SECONDS.labels(sent[0]).observe(max(0.0, time.time() - sent[1]))
        # The game's entry in ai:pending is left alone: a newer turn may already
        # have replaced it, and a stale one costs the sweep one read.
        return applied

    def _on_message(self, data: bytes) -> None:
        meta = json.loads(data)
        task_id = meta.get("task_id", "")
        sent = self.dispatcher.claim_result(task_id)
        if sent is None:
            # Another process sent it, or it is not a decision at all (a hint: hints are
            # never registered as sent, so their answers are never applied as moves).
            if self.dispatcher.claim_abandoned(task_id):
                self.results.delete(f"celery-task-meta-{task_id}")
            return
        result = meta.get("result")
        if meta.get("status") != "SUCCESS" or not isinstance(result, dict) or "game_id" not in result:
            return  # failures are retried by the sweeper at the deadline
        with self.app.app_context():
            self.apply_result(result, sent)
        # Applied now or stale: nobody needs the stored result any more.
        self.results.delete(f"celery-task-meta-{meta['task_id']}")

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                pubsub = self.results.pubsub(ignore_subscribe_messages=True)
                pubsub.psubscribe(RESULT_CHANNELS)
                for message in pubsub.listen():
                    if self._stop.is_set():
                        return
                    try:
                        self._on_message(message["data"])
                    except Exception:
                        log.exception("could not apply an AI result")
            except redis.RedisError as error:
                log.warning("ai listener reconnecting", extra={"error": error.__class__.__name__})
                self._stop.wait(1.0)

    # ---- deadlines --------------------------------------------------------------

    def _sweep(self) -> None:
        while not self._stop.wait(self.sweep_interval):
            try:
                with self.app.app_context():
                    self.sweep_once()
            except redis.RedisError as error:
                log.warning("ai sweep failed", extra={"error": error.__class__.__name__})
            except Exception:
                log.exception("ai sweep failed")

    def sweep_once(self) -> None:
        client = self.dispatcher.client
        for raw_id in client.zrangebyscore(PENDING_KEY, "-inf", time.time(), start=0, num=100):
            game_id = raw_id.decode()
            if not client.zrem(PENDING_KEY, game_id):
                continue  # another API process claimed it
            self.recover(game_id)

    def recover(self, game_id: str) -> None:
        """An AI turn is overdue: apply its result if it exists, else send it (again)."""
        record = self.store.load(game_id)
        seat = ai_seat_to_move(record) if record is not None else None
        if record is None or seat is None:
            return  # applied meanwhile, a registration whose write lost its race, or the game is gone
        pending = self.dispatcher.pending(game_id)
        attempts = 0  # never sent: the process that committed died before sending
        if pending is not None and pending["version"] == record.version:
            stored = self.dispatcher.celery.AsyncResult(pending["task_id"])
            if stored.successful() and isinstance(stored.result, dict):
                self.apply_result(stored.result)
                return
            attempts = pending["attempts"]
        if attempts >= self.max_attempts:
            log.error("no AI worker answered; playing basic's move", extra={"game_id": game_id, "seat": seat})
            move = fallback_move(record, seat)
            self.apply_result({"game_id": game_id, "version": record.version, "seat": seat, "move": move})
            return
        level = record.seats[seat].level or DEFAULT_LEVEL
        if attempts:
            AI_REISSUED.labels(level).inc()
        log.warning("ai turn overdue; sending it", extra={"game_id": game_id, "attempts": attempts})
        self.dispatcher.dispatch(record, seat, attempts=attempts + 1)
