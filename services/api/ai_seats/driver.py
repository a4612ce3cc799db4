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
  one API process acts; it is a lease of :data:`CLAIM_LEASE_SECONDS` at least, so a
  process killed between the claim and its act leaves the turn to another process's
  sweep, not lost), applies the stored result if the publication was
  missed (or its sender died), and otherwise sends the task again.  A turn
  is registered before its version is even committed
  (:class:`services.api.ai_seats.hooks.DispatchHooks`), so a game never stalls when
  a worker or an API process dies mid-decision:
  ``AI_DECISION_DEADLINE_SECONDS`` (default 10) bounds the delay.  After
  ``AI_MAX_ATTEMPTS`` failed attempts the API plays basic's move for the seat
  itself (:func:`services.computers.basic_move`: pure, no worker needed, and
  never a nil bid unless nil is the only legal bid), so a broken worker pool
  can't freeze a game forever (logged and counted).  The overdue turn of a
  computer-only game nobody watches is not sent again: the game is marked
  paused (:mod:`services.api.ai_seats.pauses`) and its next read sends it.
  Each sweep beats the service's heartbeat first (:mod:`services.api.games.service_beat`): no deadline is
  acted on before the outages it must give back are known, and a sweep that cannot beat acts on none.  A turn
  claimed but not recovered (a beat that answered too late, a store error) goes back on the timers, so its
  result is taken later, never dropped.

With several broker nodes (``AI_BROKER_URLS``) there is one listener per node, each subscribed on its
node's result backend.  A node that is down costs only its own games, and only time: their overdue turns
cannot be sent again, so the sweeper plays basic's move for them at once (one deadline per move instead of
``AI_MAX_ATTEMPTS``), its stored results read as missing; the other nodes' games are swept as usual.  When
the node is back, the next turn sent there is a worker's again.
"""

from __future__ import annotations

import heapq
import json
import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import redis
from kombu.exceptions import OperationalError

from services.api.ai_seats.dispatch import AiDispatcher, Sent
from services.api.ai_seats.hooks import ai_seat_to_move
from services.api.ai_seats.pauses import OFF, PauseGate
from services.api.ai_seats.results import ResultChannels, result_channel
from services.api.games.clock_credit import credit_clock
from services.api.games.clocks import NO_OUTAGES, credited, deadline_seconds, stand_in_level
from services.api.games.commands import Collaborators, apply_ai_move
from services.api.games.record import GameRecord
from services.api.games.rematch import release_due
from services.api.metrics import (
    AI_DECISION_SECONDS,
    AI_FALLBACK_MOVES,
    AI_QUEUE_WAIT_SECONDS,
    AI_REISSUED,
    AI_RESULT_SUBSCRIPTIONS,
    AI_RESULTS_RECEIVED,
)
from services.api.problems import ApiError
from services.api.store.redis_pubsub import RedisSubscription
from services.computers import basic_move
from services.engine import view

log = logging.getLogger(__name__)
SWEEP_BATCH = 100
CLAIM_LEASE_SECONDS = 30.0  # a claimed deadline's lease, at least (the decision deadline when longer): a recovery
# takes milliseconds; one whose process died is taken over by another's sweep once it runs out
MAX_DUES = 100_000  # clock deadlines a process wakes for at most
DUE_SLACK = 0.002  # s: a wake-up a moment after a deadline finds it due in the timers
MIN_GAP = 0.05  # s between sweeps a deadline wakes: the timers are read at most 20 times a second
SWEEP_PARALLEL = 8  # the API's: overdue turns one sweep recovers, and results its listeners apply, at once
#: What a broker node that is down raises to a send or a result read.
BROKER_DOWN = (OperationalError, redis.RedisError, OSError)


def fallback_move(record: GameRecord, seat: int) -> dict[str, Any]:
    """Basic's move for the seat: the last resort when no worker answers.

    Not "the lowest legal move": while bidding that is nil, a promise to take
    no trick that a strong hand then breaks for -100.  Basic's rule reads only
    the seat's own view, like every computer level."""
    return basic_move(view(record.state, seat, history=False))


class AiDriver:
    """Applies AI decisions as they land and re-sends lost ones (see module doc).

    ``ctx`` is what the commands work with (its store holds the timers);
    ``results`` the result backend's Redis, for the listener, or one per broker node in
    ``AI_BROKER_URLS`` order (None: no listener, results are only found by the sweep).  A task
    still awaited ``max_attempts`` deadlines after it was sent is forgotten: by then its turn
    was re-sent or played."""

    def __init__(
        self,
        ctx: Collaborators,
        dispatcher: AiDispatcher,
        results: redis.Redis | Sequence[redis.Redis] | None,
        max_attempts: int,
        sweep_interval: float,
        clock: Callable[[], float] = time.time,
        gate: PauseGate = OFF,
        parallel: int = 1,
    ) -> None:
        self.ctx = ctx
        self.parallel = parallel  # overdue turns one sweep recovers, and results applied, at once (threads)
        self._pool: ThreadPoolExecutor | None = None
        self.gate = gate
        self.store = ctx.store
        self.dispatcher = dispatcher
        self.node_results: list[redis.Redis] = (
            [] if results is None else list(results) if isinstance(results, (list, tuple)) else [results]
        )
        self.results = self.node_results[0] if self.node_results else None
        self.max_attempts = max_attempts
        self.sweep_interval = sweep_interval
        self.clock = clock
        self._stop = threading.Event()
        self._woken = threading.Event()  # set by stop() and by a deadline sooner than the sweeper's next wake
        self._dues: list[float] = []  # a heap: the clock deadlines this process registered, still to come
        self._dues_lock = threading.Lock()
        self.node_channels = [self._listen(node, client) for node, client in enumerate(self.node_results)]
        self.channels: ResultChannels | None = self.node_channels[0] if self.node_channels else None

    def _listen(self, node: int, client: redis.Redis) -> ResultChannels:
        """Node ``node``'s listener, on its result backend ``client``."""
        channels = ResultChannels(
            lambda: RedisSubscription(client, sharded=False),
            lambda data: self._on_message(data, node),
            AI_RESULT_SUBSCRIPTIONS,
            appliers=self.parallel,
        )
        self.dispatcher.listen_with(channels, node)
        return channels

    def start(self) -> None:
        for channels in self.node_channels:
            channels.start()
        threading.Thread(target=self._sweep, name="ai-sweeper", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()
        self._woken.set()
        for channels in self.node_channels:
            channels.stop()

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
        # The game's timer is left alone: a newer turn may already have
        # replaced it, and a stale one costs the sweep one read.
        return applied

    def _on_message(self, data: bytes, node: int = 0) -> None:
        """A result published on a channel node ``node``'s listener subscribed to (its applier calls this)."""
        meta = json.loads(data)
        task_id = meta.get("task_id", "")
        sent = self.dispatcher.claim_result(task_id)
        if sent is None:
            # Not a decision this process awaits: a hint whose requester gave up (hints are never
            # registered as sent, so their answers are never applied as moves), or one forgotten meanwhile.
            abandoned = self.dispatcher.claim_abandoned(task_id)
            AI_RESULTS_RECEIVED.labels("abandoned_hint" if abandoned else "unclaimed").inc()
            if abandoned and self.node_results:
                self.node_results[node].delete(result_channel(task_id))
            return
        AI_RESULTS_RECEIVED.labels("decision").inc()
        result = meta.get("result")
        if meta.get("status") != "SUCCESS" or not isinstance(result, dict) or "game_id" not in result:
            return  # failures are retried by the sweeper at the deadline
        try:
            self.apply_result(result, sent)
        except ApiError as error:  # not judged now (503): kept stored, its turn on the timers, for the sweep
            log.warning("ai result not applied yet", extra={"task_id": task_id, "error": error.code})
            return
        if self.node_results:  # applied now or stale: nobody needs the stored result any more
            self.node_results[node].delete(result_channel(task_id))

    # ---- deadlines --------------------------------------------------------------

    def wake_at(self, due: float) -> None:
        """A person's deadline this process registered (Unix s): the sweeper looks then, not only at its
        interval, so the timeout move goes out as the clock runs out.  (Another process's, or one registered
        before a restart, waits for an interval at most.)"""
        with self._dues_lock:
            heapq.heappush(self._dues, due)
            if len(self._dues) > MAX_DUES:  # the soonest are kept: the rest wait for an interval at most
                self._dues = heapq.nsmallest(MAX_DUES // 2, self._dues)
            sooner = self._dues[0] == due
        if sooner:
            self._woken.set()

    def _passed(self, now: float) -> bool:
        """Whether a registered deadline has passed (those that have are dropped)."""
        passed = False
        with self._dues_lock:
            while self._dues and self._dues[0] <= now:
                heapq.heappop(self._dues)
                passed = True
        return passed

    def _sweep(self) -> None:
        """Every ``sweep_interval``, and at each registered deadline (at most every ``MIN_GAP`` s: deadlines that
        close together are swept together)."""
        next_sweep, last = self.clock() + self.sweep_interval, float("-inf")
        while not self._stop.is_set():
            now = self.clock()
            if now >= next_sweep or (now >= last + MIN_GAP and self._passed(now)):
                next_sweep, last = now + self.sweep_interval, now
                try:
                    self.sweep_once()
                except redis.RedisError as error:
                    log.warning("ai sweep failed", extra={"error": error.__class__.__name__})
                except Exception:
                    log.exception("ai sweep failed")
            with self._dues_lock:
                due = self._dues[0] + DUE_SLACK if self._dues else next_sweep
            self._woken.wait(max(0.0, min(next_sweep, max(due, last + MIN_GAP)) - self.clock()))
            self._woken.clear()

    def sweep_once(self) -> None:
        self.ctx.outages.current(within=self.sweep_interval)  # the heartbeat: a beat at least every sweep
        now = self.clock()
        self.dispatcher.forget_before(now - self.max_attempts * self.dispatcher.deadline)
        due = self.store.due_turns(now, SWEEP_BATCH)
        if self.parallel > 1 and len(due) > 1:  # a burst of run-out clocks: their round trips overlap
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.parallel, thread_name_prefix="ai-sweep")
            list(self._pool.map(partial(self._claim, now=now), due))
        else:
            for game_id in due:
                self._claim(game_id, now)

    def _claim(self, game_id: str, now: float) -> None:
        lease = round(now + max(self.dispatcher.deadline, CLAIM_LEASE_SECONDS), 3)
        if not self.store.claim_turn(game_id, now, lease):
            return  # another API process claimed it (or set a later deadline since the read)
        try:
            self.recover(game_id)
        except Exception as error:  # one game's failure must not stop the batch, nor lose its turn
            # The lease would bring it back; sooner is better.  A heartbeat that answered too late (503: the outages
            # unknown) is retried by the next sweep that can beat; anything else (a store or broker node down) a
            # deadline later.
            late = isinstance(error, ApiError) and error.status == 503
            extra = {"game_id": game_id, "error": type(error).__name__}
            if late or isinstance(error, BROKER_DOWN):
                log.warning("ai turn not recovered", extra=extra)
            else:
                log.exception("ai turn not recovered", extra=extra)
            self.store.expect_turn(game_id, now if late else now + self.dispatcher.deadline, earlier=True)
            return
        self.store.release_turn(game_id, lease)  # acted: the lease goes unless the recovery set a deadline

    def recover(self, game_id: str) -> None:
        """An AI turn is overdue: apply its result if it exists, else send it (again).  (Or the wait for a
        rematch's reserved seats ended: :func:`services.api.games.rematch.release_due`.)"""
        record = self.store.load(game_id)
        if record is not None and record.rematch.reserved:  # a rematch's seats kept for their people
            release_due(self.ctx, game_id, int(self.clock() * 1000))
            return
        outages = self.ctx.outages.current() if record is not None and record.clock is not None else NO_OUTAGES
        seat = ai_seat_to_move(record, round(self.clock() * 1000), outages) if record is not None else None
        if record is None or seat is None:
            due = deadline_seconds(record, outages) if record is not None else None
            if due is None:
                return  # applied meanwhile, a registration whose write lost its race, or the game is gone
            given = record.clock is not None and credited(record.clock, outages) is not record.clock
            if not (given and credit_clock(self.ctx, game_id)):  # a credit's commit registers its own deadline
                self.store.expect_turn(game_id, due)  # a person's clock not run out yet: back at its deadline
            return
        pending = self.dispatcher.pending(game_id)
        attempts = 0  # never sent: the process that committed died before sending
        if pending is not None and pending["version"] == record.version:
            try:
                stored = self.dispatcher.stored_result(pending["task_id"], game_id)
            except BROKER_DOWN:  # its broker node is down: as if nothing was stored
                stored = None
            if stored is not None:
                self.apply_result(stored)
                self.dispatcher.claim_result(pending["task_id"])  # if this process sent it: no longer awaited
                return
            attempts = pending["attempts"]
        if not self.gate.may_send(record):
            return  # a computer-only game nobody watches: paused, its next read sends the turn
        if attempts >= self.max_attempts:
            log.error("no AI worker answered; playing basic's move", extra={"game_id": game_id, "seat": seat})
            self.play_fallback(record, seat)
            return
        level = stand_in_level(record, seat)
        if attempts:
            AI_REISSUED.labels(level).inc()
        if attempts or record.seats[seat].type == "ai":
            log.warning("ai turn overdue; sending it", extra={"game_id": game_id, "attempts": attempts})
        else:  # a person's clock ran out: the timeout move, as it should be
            log.info("turn clock ran out; the computer moves", extra={"game_id": game_id, "seat": seat})
        try:
            self.dispatcher.dispatch(record, seat, attempts=attempts + 1)
        except BROKER_DOWN as error:  # its broker node is down: no worker can answer, so don't wait for one
            extra = {"game_id": game_id, "seat": seat, "error": type(error).__name__}
            log.error("broker node unreachable; playing basic's move", extra=extra)
            self.play_fallback(record, seat)

    def play_fallback(self, record: GameRecord, seat: int) -> None:
        """Basic's move for ``seat`` at ``record.version`` (the compare-and-set drops it if a worker's landed)."""
        move = fallback_move(record, seat)
        if self.apply_result({"game_id": record.game_id, "version": record.version, "seat": seat, "move": move}):
            AI_FALLBACK_MOVES.labels(str(self.dispatcher.node_for(record.game_id))).inc()
