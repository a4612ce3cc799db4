"""The Celery application of the AI worker.

    celery -A services.ai_worker.celery_app worker -Q ai.hard,ai.bulk.hard \
        --without-gossip --without-mingle --without-heartbeat

(one level's two queues; ``python -m services.stack`` starts workers for every
level's, ``services.computers.QUEUES`` and ``BULK_QUEUES``).

Configuration comes from the environment: ``CELERY_BROKER_URL`` and
``CELERY_RESULT_BACKEND``, both defaulting to ``REDIS_URL`` (default
``redis://127.0.0.1:6379/0``).

Reliability settings, and why:

* ``task_acks_late`` + ``task_reject_on_worker_lost``: a task is acknowledged
  only after it finishes, and requeued if the worker process dies mid-task,
  so a crash or a pod eviction never silently drops a computer's move.  The
  task is a pure function of its arguments (view + seed), so running it twice
  is harmless.
* ``worker_prefetch_multiplier = 1``: a worker reserves one task at a time, so
  a slow pro decision cannot hold other games' moves hostage in its buffer
  and queue length is an honest autoscaling signal.
* time limits (soft 10 s, hard 20 s): decisions take milliseconds; a task
  running this long is stuck, and the soft limit lets it fail cleanly before
  the hard limit kills the process.
* ``result_expires = 300``: the API applies a decision the moment its result
  is published and then deletes it; a result is only read later when that
  publication was missed, by the API's deadline sweep within seconds.  Five
  minutes covers that with room to spare and bounds Redis memory (at 500
  decisions/s an hour of results would hold ~600 MB).
* one queue per level (``services.computers.QUEUES``: ``ai.<level>`` for each
  level of the catalogue), routed by the caller
  (``send_task("ai.decide", queue=f"ai.{level}")``), so cheap and expensive
  levels can be scaled apart; the routes below are the defaults.  Hints
  (``ai.hint``) run on the hint level's queue, ``ai.expert``.
* JSON only: the view is plain JSON and nothing else should be unpickled.
* people first: the turns of computer-only games go to the level's bulk queue
  ``ai.bulk.<level>`` (``services.computers.queue_of``), and a worker lists its
  queues interactive first (``-Q ai.hard,ai.bulk.hard``;
  ``services.computers.WORKER_QUEUES`` for all levels).  kombu's Redis transport
  takes a task with one ``BRPOP`` over the worker's queues, which Redis
  answers from the first non-empty list in the order given; its default
  ``round_robin`` strategy rotates that order after each task,
  ``queue_order_strategy="priority"`` keeps the ``-Q`` order, so a bulk
  task is taken only when every interactive queue of the worker is empty.
  With prefetch 1 and late acks a process reserves only the task it runs,
  so a waiting person's turn waits at most for the tasks already running.

Broker load, and why (the broker + result-backend Redis is the fleet's first
bottleneck, docs/capacity.md; commands per decision: ``benchmarks.scaling``'s
``broker_redis_calls_per_decision``):

* ``WORKER_OPTIONS`` (``--without-gossip --without-mingle --without-heartbeat``),
  passed by every worker command (services/stack.py, deploy/k8s; compose keeps
  heartbeats for Flower): Celery's *worker* heartbeat is an event PUBLISHed
  every 2 s (0.5 a second per worker, measured, busy or idle), and gossip
  subscribes every worker to every other one's events, so each heartbeat is
  delivered to the whole fleet (deliveries grow with the square of the
  workers); mingle asks the other workers for revoked tasks and clocks at
  start.  Nothing here reads them: liveness and ``/readyz`` use ``inspect
  ping``/``active_queues`` (the pidbox, a separate mechanism), KEDA reads the
  list length, nothing is revoked, and a lost task comes back through
  ``task_reject_on_worker_lost``'s requeue or the transport's restore of
  ``unacked`` (its visibility timeout), neither of which uses heartbeats.
  (Task events stay off: Celery's default, ``worker_send_task_events`` and
  ``task_send_sent_event`` False.)
* kombu's ``BRPOP`` timeout stays 1 s (``polling_interval``): an idle worker
  costs one BRPOP a second, noise beside its decisions, and a longer one
  would delay noticing a half-open broker connection.
* What stays, because it is the reliability: per task the Redis transport
  keeps late acks in the ``unacked`` hash and ``unacked_index`` zset (a
  MULTI/ZADD/HSET/EXEC at delivery, MULTI/ZREM/HDEL/EXEC at the ack: 8 of the
  ~18 commands a decision costs) so a dead worker's task is restored;
  ``ack_emulation`` off would drop them and lose that task instead.  The
  result's GET before its SETEX + PUBLISH (one MULTI/EXEC) is Celery's guard
  against a redelivered duplicate overwriting a stored success.
* The sending side is the API's: it sends without Celery's per-task result
  subscription (``services.api.ai_seats.senders.SenderRedisBackend``).

``worker_init`` (main process: covers the solo pool, and prefork children
fork from a warm parent) and ``worker_process_init`` (each prefork child)
handlers compile (or load) the numba kernel before any task is taken, so no
task pays JIT cost.
"""

from __future__ import annotations

import logging
import os

from celery import Celery
from celery.signals import worker_init, worker_process_init

from services.computers import DEFAULT_LEVEL, HINT_LEVEL, queue_of

from .warmup import warm_up

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"

log = logging.getLogger(__name__)


def _redis_url() -> str:
    return os.environ.get("REDIS_URL", DEFAULT_REDIS_URL)


celery = Celery("spades_ai", include=["services.ai_worker.tasks"])
celery.conf.update(
    broker_url=os.environ.get("CELERY_BROKER_URL", _redis_url()),
    result_backend=os.environ.get("CELERY_RESULT_BACKEND", _redis_url()),
    task_serializer="json",
    result_serializer="json",
    accept_content=["json"],
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    task_soft_time_limit=10,
    task_time_limit=20,
    result_expires=300,
    task_default_queue=queue_of(DEFAULT_LEVEL),
    task_routes={
        "ai.decide": {"queue": queue_of(DEFAULT_LEVEL)},
        "ai.hint": {"queue": queue_of(HINT_LEVEL)},
        "ai.true_deal": {"queue": queue_of(HINT_LEVEL, bulk=True)},  # finished rounds only: the accuracy collector
    },
    broker_connection_retry_on_startup=True,
    broker_transport_options={"queue_order_strategy": "priority"},  # -Q order: interactive before bulk
    worker_hijack_root_logger=False,
)
app = celery  # the name `celery -A` looks for as well

#: Options every AI worker command passes (see the module docstring, "Broker load").
WORKER_OPTIONS: tuple[str, ...] = ("--without-gossip", "--without-mingle", "--without-heartbeat")


@worker_init.connect
@worker_process_init.connect
def _warm_kernel(**_: object) -> None:
    """Pay the JIT (or cache load) once per worker process, at start."""
    warm_up()
    log.info("ai kernel warmed up in pid %s", os.getpid())
