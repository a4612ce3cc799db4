"""Hints for people: the hint level's move for a seat, computed by the AI workers.

``GET /v1/games/{id}/hint`` with a seat's token, on that seat's turn, sends the
task ``ai.hint`` **by name** to the hint level's queue (``ai.hard``; the API
never imports the worker) with the seat's own view, and waits a bounded time
(``HINT_TIMEOUT_SECONDS``) for the answer:

* The request subscribes to the task's own result channel
  (``celery-task-meta-<id>``, which Celery's Redis result backend PUBLISHes the
  moment a task finishes) *before* sending, through the process's one result
  listener (:class:`services.api.ai_seats.results.ResultChannels`, the same
  connection and reader that hear the AI decisions), with a
  :class:`~services.api.ai_seats.results.ResultWaiter` the reader hands the
  answer to; a final ``GET`` of the stored result covers a missed publication.
  A process that runs no result listener (``AI_ENABLED=0``) answers 503.  Celery's own ``AsyncResult.get`` is not used: its shared
  result consumer is not safe across a gunicorn worker's threads.
* The task is sent with ``expires`` equal to the wait, so a worker that takes
  it off the queue after the requester gave up drops it instead of computing
  an answer nobody reads.
* A result read is deleted at once.  One that lands after the wait is
  *abandoned*: the process's AI listener subscribes to its channel and deletes
  it when it arrives (one that lands between the wait's end and that
  subscription, or with no listener, expires with the worker's
  ``result_expires``).
* The AI listener applies only results of tasks its process sent as
  decisions (:meth:`AiDispatcher.claim_result`); a hint is never registered
  there, so a hint's answer can never be applied as a move.

The hint is for the token's own seat only and is computed from that seat's
view alone (finished rounds left out, as for ``ai.decide``): it can reveal
nothing the seat can't see.  Its seed derives from the game's secret seed,
the version and the seat, so a player can't predict it, and asking again at
the same version gives the same hint (cached per process).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import time
import uuid
from typing import Any

import redis
from celery import Celery

from services.api.ai_seats.dispatch import AiDispatcher
from services.api.ai_seats.results import ResultWaiter, result_channel
from services.api.games.rendering import ViewCache
from services.api.problems import ApiError
from services.api.store.protocol import GameRecord
from services.engine import turn, view
from services.players import HINT_LEVEL

log = logging.getLogger(__name__)
TASK_NAME = "ai.hint"
FIGURES = ("value", "make_chance", "trick_chance")  # the numbers a candidate may carry


def hint_seed(game_seed: int, version: int, seat: int) -> int:
    """Reproducible from the (secret) game seed, so asking again gives the same
    hint, yet unpredictable to players, who never see that seed."""
    digest = hashlib.sha256(f"{game_seed}:{version}:hint:{seat}".encode()).digest()
    return int.from_bytes(digest[:7], "big")


def check_hint_allowed(record: GameRecord, seat: int, enabled: bool) -> None:
    """403 when the game turned hints off; 409 when it is not ``seat``'s turn to move."""
    if not enabled:
        raise ApiError(403, "hints_disabled", "This game was created with hints turned off (options.hints).")
    phase = record.state.phase
    if record.waiting:
        raise ApiError(409, "not_your_turn", "The game waits until every seat is taken.", reason="wrong_phase")
    if phase == "game_over":
        raise ApiError(409, "not_your_turn", "The game is over.", reason="game_over")
    if phase not in ("bidding", "playing") or turn(record.state) != seat:
        raise ApiError(
            409, "not_your_turn", f"It is seat {turn(record.state)}'s turn, not {seat}'s.", reason="not_your_turn"
        )


def hint_for(
    client: HintClient, cache: ViewCache | None, record: GameRecord, seat: int, request_id: str
) -> dict[str, Any]:
    """The hint for ``seat`` at ``record.version``, checked allowed, and cached
    by (game, version, seat): same version, same seed, the same hint."""
    check_hint_allowed(record, seat, bool(record.options["hints"]))
    key = ("hint", record.game_id, record.version, seat)
    answer = cache.get(key) if cache is not None else None
    if answer is None:
        answer = client.ask(record, seat, request_id)
        if cache is not None:
            cache.put(key, answer)
    return answer


def _move_of(item: dict[str, Any]) -> dict[str, Any]:
    return {"bid": int(item["bid"])} if "bid" in item else {"card": str(item["card"])}


def public_hint(result: dict[str, Any], record: GameRecord, seat: int, legal: list[Any]) -> dict[str, Any]:
    """The worker's answer as the API shows it, checked: for this game, version
    and seat, a legal move, and candidates reduced to a legal move each plus
    the known figures as finite numbers (nothing else a worker returns leaves
    the service)."""
    if (result.get("game_id"), result.get("version"), result.get("seat")) != (record.game_id, record.version, seat):
        raise ValueError("the answer is for another game, version or seat")
    move = _move_of(result["move"])
    if next(iter(move.values())) not in legal:
        raise ValueError(f"the hinted move {move} is not legal")
    candidates = []
    for item in result.get("candidates") or []:
        candidate = _move_of(item)
        if next(iter(candidate.values())) not in legal:
            continue
        for name in FIGURES:
            number = item.get(name)
            if isinstance(number, int | float) and not isinstance(number, bool) and math.isfinite(number):
                candidate[name] = float(number)
        candidates.append(candidate)
    return {
        "game_id": record.game_id,
        "seat": seat,
        "version": record.version,
        "level": str(result.get("level") or HINT_LEVEL),
        "move": move,
        "candidates": candidates,
    }


class HintClient:
    """Sends ``ai.hint`` and waits for its answer (see the module doc)."""

    def __init__(
        self, celery: Celery, results: redis.Redis, dispatcher: AiDispatcher, queue: str, timeout: float
    ) -> None:
        self.celery = celery
        self.results = results
        self.dispatcher = dispatcher
        self.queue = queue
        self.timeout = timeout

    def retry_after(self) -> int:
        return max(1, math.ceil(self.timeout))

    def unavailable(self, detail: str) -> ApiError:
        return ApiError(503, "hint_unavailable", detail, retry_after=self.retry_after())

    def ask(self, record: GameRecord, seat: int, request_id: str) -> dict[str, Any]:
        """The hint for ``seat`` at ``record.version`` (the caller checked it is its turn)."""
        seat_view = view(record.state, seat, history=False)  # no strategy reads finished rounds
        task_id = str(uuid.uuid4())
        kwargs = {
            "view": seat_view,
            "game_id": record.game_id,
            "version": record.version,
            "seat": seat,
            "seed": hint_seed(record.state.seed, record.version, seat),
            "request_id": request_id,
        }
        started = time.monotonic()
        channels = self.dispatcher.listener
        if channels is None:
            raise self.unavailable("This API process runs no AI result listener (AI_ENABLED=0).")
        waiter = ResultWaiter()
        channels.subscribe(task_id, waiter=waiter)  # before sending: the answer can't be published unheard
        try:
            self.celery.send_task(TASK_NAME, task_id=task_id, kwargs=kwargs, queue=self.queue, expires=self.timeout)
        except Exception as error:  # kombu's connection errors: the broker is down
            channels.unsubscribe(task_id)
            log.warning("could not send a hint task", extra={"error": error.__class__.__name__})
            raise ApiError(503, "unavailable", "The AI workers' broker is unreachable; retry shortly.") from None
        payload = waiter.wait(started + self.timeout - time.monotonic())
        if payload is None:
            payload = channels.release(task_id)  # arrived since the wait ended
        if payload is None:
            payload = self.results.get(result_channel(task_id))  # published while the subscription was broken
        meta = json.loads(payload) if payload else None
        if meta is None:
            self.dispatcher.abandon_result(task_id)
            log.warning("no worker answered a hint in time", extra={"game_id": record.game_id, "queue": self.queue})
            raise self.unavailable(f"No AI worker answered within {self.timeout:g} s; retry later.")
        self.results.delete(result_channel(task_id))
        result = meta.get("result")
        if meta.get("status") != "SUCCESS" or not isinstance(result, dict):
            log.error("a hint task failed", extra={"game_id": record.game_id, "status": meta.get("status")})
            raise self.unavailable("The AI worker could not compute a hint; retry later.")
        try:
            return public_hint(result, record, seat, seat_view["legal"])
        except (KeyError, TypeError, ValueError) as error:
            log.error("a hint answer was refused", extra={"game_id": record.game_id, "error": str(error)})
            raise self.unavailable("The AI worker's hint was not usable; retry later.") from None
