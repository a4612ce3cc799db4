"""``ai.hint`` tasks a request waits for itself: a hint (one task) or a round review (one per move).

The task is sent **by name** to the hint level's queue (``ai.expert``; the API never imports the
worker) and its answer comes back through the process's one AI result listener
(:class:`services.api.ai_seats.results.ResultChannels`, the connection and reader that hear the AI
decisions):

* Each task's result channel (``celery-task-meta-<id>``, which Celery's Redis result backend
  PUBLISHes the moment a task finishes) is subscribed *before* the task is sent, with a
  :class:`~services.api.ai_seats.results.ResultWaiter` the reader hands the answer to; a final
  ``GET`` of the stored result covers a missed publication.  A process that runs no result listener
  (``AI_ENABLED=0``) answers 503.  Celery's own ``AsyncResult.get`` is not used: its shared result
  consumer is not safe across a gunicorn worker's threads.
* Several tasks are all sent first, then waited for under one bound: the wait is as long as the
  slowest answer, not their sum.
* Tasks are sent with ``expires`` equal to the wait, so a worker that takes one off the queue after
  the requester gave up drops it instead of computing an answer nobody reads.
* A result read is deleted at once.  One that lands after the wait is *abandoned*: the process's AI
  listener subscribes to its channel and deletes it when it arrives (one that lands between the
  wait's end and that subscription, or with no listener, expires with the worker's ``result_expires``).
* The AI listener applies only results of tasks its process sent as decisions
  (:meth:`AiDispatcher.claim_result`); an analysis is never registered there, so its answer can
  never be applied as a move.
"""

from __future__ import annotations

import json
import logging
import math
import time
import uuid
from collections.abc import Sequence
from typing import Any

import redis

from services.api.ai_seats.dispatch import AiDispatcher, ResultListener
from services.api.ai_seats.results import ResultWaiter, result_channel
from services.api.problems import ApiError

log = logging.getLogger(__name__)
TASK_NAME = "ai.hint"


class AnalysisTasks:
    """Sends ``ai.hint`` tasks and waits, with one bound, for their answers (see the module doc).

    ``code`` is the problem code of a 503 when an answer is missing (``hint_unavailable``,
    ``review_unavailable``).  A game's analyses go to the broker node that carries its turns
    (``dispatcher.nodes``, :meth:`AiDispatcher.node_for`), so no node carries every game's;
    ``results`` is each node's result backend, in the same order."""

    def __init__(
        self, results: Sequence[redis.Redis], dispatcher: AiDispatcher, queue: str, timeout: float, code: str
    ) -> None:
        if len(results) != len(dispatcher.nodes):
            raise ValueError("one result backend per broker node")
        self.results = list(results)
        self.dispatcher = dispatcher
        self.queue = queue
        self.timeout = timeout
        self.code = code

    def retry_after(self) -> int:
        return max(1, math.ceil(self.timeout))

    def unavailable(self, detail: str) -> ApiError:
        return ApiError(503, self.code, detail, retry_after=self.retry_after())

    def run(self, jobs: list[dict[str, Any]], game_id: str) -> list[dict[str, Any]]:
        """Each job's (the task's kwargs) worker answer, in order; 503 unless every one came in time."""
        started = time.monotonic()
        node = self.dispatcher.node_for(game_id)
        celery, results = self.dispatcher.nodes[node], self.results[node]
        channels = self.dispatcher.listeners.get(node)
        if channels is None:
            raise self.unavailable("This API process runs no AI result listener (AI_ENABLED=0).")
        sent: list[tuple[str, ResultWaiter]] = []
        try:
            for kwargs in jobs:
                task_id, waiter = str(uuid.uuid4()), ResultWaiter()
                channels.subscribe(task_id, waiter=waiter)  # before sending: the answer can't be published unheard
                sent.append((task_id, waiter))
                celery.send_task(TASK_NAME, task_id=task_id, kwargs=kwargs, queue=self.queue, expires=self.timeout)
        except Exception as error:  # kombu's connection errors: the broker is down
            for task_id, _ in sent:
                channels.unsubscribe(task_id)
            log.warning("could not send an analysis task", extra={"error": error.__class__.__name__})
            raise ApiError(503, "unavailable", "The AI workers' broker is unreachable; retry shortly.") from None
        payloads = [self._answer(task_id, waiter, started, channels, results) for task_id, waiter in sent]
        missing = [task_id for (task_id, _), payload in zip(sent, payloads, strict=True) if payload is None]
        answered = [task_id for (task_id, _), payload in zip(sent, payloads, strict=True) if payload is not None]
        if answered:
            results.delete(*(result_channel(task_id) for task_id in answered))
        if missing:
            for task_id in missing:
                self.dispatcher.abandon_result(task_id, node)
            log.warning(
                "no worker answered an analysis in time",
                extra={"game_id": game_id, "queue": self.queue, "missing": len(missing), "tasks": len(sent)},
            )
            raise self.unavailable(f"No AI worker answered within {self.timeout:g} s; retry later.")
        answers = []
        for payload in payloads:
            meta = json.loads(payload) if payload else {}
            result = meta.get("result")
            if meta.get("status") != "SUCCESS" or not isinstance(result, dict):
                log.error("an analysis task failed", extra={"game_id": game_id, "status": meta.get("status")})
                raise self.unavailable("The AI worker could not compute an answer; retry later.")
            answers.append(result)
        return answers

    def _answer(
        self, task_id: str, waiter: ResultWaiter, started: float, channels: ResultListener, results: redis.Redis
    ) -> bytes | None:
        """The task's result payload (heard on its node's ``channels``, stored on its ``results``), waited for
        until ``started`` + the timeout, else None."""
        payload = waiter.wait(started + self.timeout - time.monotonic())
        if payload is None:
            payload = channels.release(task_id)
        if payload is None:
            payload = results.get(result_channel(task_id))  # published while the subscription was broken
        return payload or None


class BulkAnalyses:
    """``ai.hint`` and ``ai.true_deal`` tasks nobody waits for (the accuracy collector, :mod:`services.api.ratings.collector`): sent to
    ``queue`` (the bulk expert queue) on the game's broker node with ``expires`` seconds to be taken off it, and
    their results read later, by task id, from that node's result backend and deleted when found."""

    def __init__(self, results: Sequence[redis.Redis], dispatcher: AiDispatcher, queue: str, expires: float) -> None:
        if len(results) != len(dispatcher.nodes):
            raise ValueError("one result backend per broker node")
        self.results = list(results)
        self.dispatcher = dispatcher
        self.queue = queue
        self.expires = expires

    def send(self, kwargs: dict[str, Any], game_id: str, task: str = TASK_NAME) -> str:
        """Send one analysis (``task``: ``ai.hint``, or ``ai.true_deal`` for a finished round); its task id."""
        task_id = str(uuid.uuid4())
        celery = self.dispatcher.nodes[self.dispatcher.node_for(game_id)]
        celery.send_task(task, task_id=task_id, kwargs=kwargs, queue=self.queue, expires=self.expires)
        return task_id

    def fetch(self, task_id: str, game_id: str) -> dict[str, Any] | None:
        """The task's result meta (``{"status", "result", …}``), deleted once read; None while there is none."""
        results = self.results[self.dispatcher.node_for(game_id)]
        key = result_channel(task_id)
        payload = results.get(key)
        if payload is None:
            return None
        results.delete(key)
        return json.loads(payload)
