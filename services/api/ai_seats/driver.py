"""Computer players' turns coming back: decisions applied as they land, lost ones re-sent.

:class:`AiDriver` (one per API process; daemon threads: the listener's reader and
applier, and the sweeper):

- the *listener* (:class:`services.api.ai_seats.results.ResultChannels`) holds one
  pub/sub connection to Celery's Redis result backend, subscribed to
  ``celery-task-meta-<task id>`` for exactly the tasks this process awaits:
  the dispatcher (:mod:`services.api.ai_seats.dispatch`) subscribes each turn before
  sending it, and the backend PUBLISHes the result there the moment the task
  finishes.  The listener applies the decision with the same compare-and-set
  as a human move (a stale or duplicate result fails the version check and is
  dropped harmlessly) and unsubscribes; other processes never hear it;
- the *sweeper* claims pending turns whose deadline has passed (the store's
  :meth:`~services.api.store.protocol.GameStore.claim_turn` is the claim, so exactly
  one API process acts), applies the stored result if the publication was
  missed (or its sender died), and otherwise sends the task again.  A turn
  is registered before its version is even committed
  (:class:`services.api.ai_seats.hooks.DispatchHooks`), so a game never stalls when
  a worker or an API process dies mid-decision:
  ``AI_DECISION_DEADLINE_SECONDS`` (default 10) bounds the delay.  After
  ``AI_MAX_ATTEMPTS`` failed attempts the API plays basic's move for the seat
  itself (:func:`services.players.basic_move`: pure, no worker needed, and
  never a nil bid unless nil is the only legal bid), so a broken worker pool
  can't freeze a game forever (logged and counted).  The overdue turn of a
  computer-only game nobody watches is not sent again: the game is marked
  paused (:mod:`services.api.ai_seats.pauses`) and its next read sends it.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import redis

from services.api.ai_seats.dispatch import AiDispatcher, Sent
from services.api.ai_seats.hooks import ai_seat_to_move
from services.api.ai_seats.pauses import OFF, PauseGate
from services.api.ai_seats.results import ResultChannels, result_channel
from services.api.games.commands import Collaborators, apply_ai_move
from services.api.metrics import (
    AI_DECISION_SECONDS,
    AI_QUEUE_WAIT_SECONDS,
    AI_REISSUED,
    AI_RESULT_SUBSCRIPTIONS,
    AI_RESULTS_RECEIVED,
)
from services.api.store.protocol import GameRecord
from services.api.store.redis_pubsub import RedisSubscription
from services.engine import view
from services.players import DEFAULT_LEVEL, basic_move

log = logging.getLogger(__name__)
SWEEP_BATCH = 100


def fallback_move(record: GameRecord, seat: int) -> dict[str, Any]:
    """Basic's move for the seat: the last resort when no worker answers.

    Not "the lowest legal move": while bidding that is nil, a promise to take
    no trick that a strong hand then breaks for -100.  Basic's rule reads only
    the seat's own view, like every computer level."""
    return basic_move(view(record.state, seat, history=False))


class AiDriver:
    """Applies AI decisions as they land and re-sends lost ones (see module doc).

    ``ctx`` is what the commands work with (its store holds the turn ledger);
    ``results`` the result backend's Redis, for the listener (None: no listener,
    results are only found by the sweep).  A task still awaited ``max_attempts``
    deadlines after it was sent is forgotten: by then its turn was re-sent or played."""

    def __init__(
        self,
        ctx: Collaborators,
        dispatcher: AiDispatcher,
        results: redis.Redis | None,
        max_attempts: int,
        sweep_interval: float,
        clock: Callable[[], float] = time.time,
        gate: PauseGate = OFF,
    ) -> None:
        self.ctx = ctx
        self.gate = gate
        self.store = ctx.store
        self.dispatcher = dispatcher
        self.results = results
        self.max_attempts = max_attempts
        self.sweep_interval = sweep_interval
        self.clock = clock
        self._stop = threading.Event()
        self.channels: ResultChannels | None = None
        if results is not None:
            self.channels = ResultChannels(
                lambda: RedisSubscription(results, sharded=False), self._on_message, AI_RESULT_SUBSCRIPTIONS
            )
            dispatcher.listen_with(self.channels)

    def start(self) -> None:
        if self.channels is not None:
            self.channels.start()
        threading.Thread(target=self._sweep, name="ai-sweeper", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()
        if self.channels is not None:
            self.channels.stop()

    # ---- applying a decision ---------------------------------------------------

    def apply_result(self, result: dict[str, Any], sent: Sent | None = None) -> bool:
        """Apply a decision; ``sent`` is its ``(level, sent_at, bulk)`` when this
        process sent it (else the recorded pending turn is read for the metrics)."""
        game_id, version, seat = result["game_id"], int(result["version"]), int(result["seat"])
        if sent is None:
            pending = self.dispatcher.pending(game_id)
            if pending is not None and pending["version"] == version:
                sent = Sent(pending["level"], pending["sent_at"], bool(pending.get("bulk")))
        applied = apply_ai_move(self.ctx, game_id, version, seat, result["move"])
        if applied and sent is not None:
            took = max(0.0, self.clock() - sent.sent_at)
            AI_DECISION_SECONDS.labels(sent.level).observe(took)
            if "elapsed_ms" in result:  # the worker's own time on it: the rest waited (mostly in the queue)
                waited = max(0.0, took - float(result["elapsed_ms"]) / 1000)
                AI_QUEUE_WAIT_SECONDS.labels("bulk" if sent.bulk else "interactive").observe(waited)
        # The game's ledger entry is left alone: a newer turn may already have
        # replaced it, and a stale one costs the sweep one read.
        return applied

    def _on_message(self, data: bytes) -> None:
        """A result published on a channel the listener subscribed to (its reader thread calls this)."""
        meta = json.loads(data)
        task_id = meta.get("task_id", "")
        sent = self.dispatcher.claim_result(task_id)
        if sent is None:
            # Not a decision this process awaits: a hint whose requester gave up (hints are never
            # registered as sent, so their answers are never applied as moves), or one forgotten meanwhile.
            abandoned = self.dispatcher.claim_abandoned(task_id)
            AI_RESULTS_RECEIVED.labels("abandoned_hint" if abandoned else "unclaimed").inc()
            if abandoned and self.results is not None:
                self.results.delete(result_channel(task_id))
            return
        AI_RESULTS_RECEIVED.labels("decision").inc()
        result = meta.get("result")
        if meta.get("status") != "SUCCESS" or not isinstance(result, dict) or "game_id" not in result:
            return  # failures are retried by the sweeper at the deadline
        self.apply_result(result, sent)
        if self.results is not None:  # applied now or stale: nobody needs the stored result any more
            self.results.delete(result_channel(task_id))

    # ---- deadlines --------------------------------------------------------------

    def _sweep(self) -> None:
        while not self._stop.wait(self.sweep_interval):
            try:
                self.sweep_once()
            except redis.RedisError as error:
                log.warning("ai sweep failed", extra={"error": error.__class__.__name__})
            except Exception:
                log.exception("ai sweep failed")

    def sweep_once(self) -> None:
        now = self.clock()
        self.dispatcher.forget_before(now - self.max_attempts * self.dispatcher.deadline)
        for game_id in self.store.due_turns(now, SWEEP_BATCH):
            if self.store.claim_turn(game_id):  # else another API process claimed it
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
            stored = self.dispatcher.stored_result(pending["task_id"])
            if stored is not None:
                self.apply_result(stored)
                self.dispatcher.claim_result(pending["task_id"])  # if this process sent it: no longer awaited
                return
            attempts = pending["attempts"]
        if not self.gate.may_send(record):
            return  # a computer-only game nobody watches: paused, its next read sends the turn
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
