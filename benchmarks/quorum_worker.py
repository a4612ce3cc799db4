"""The AI worker's Celery app on RabbitMQ quorum queues, for ``benchmarks.broker_nodes --rabbitmq``.

    CELERY_BROKER_URL=amqp://… CELERY_RESULT_BACKEND=redis://… celery -A benchmarks.quorum_worker worker -Q …

The same app and task as ``services.ai_worker.celery_app``; only the queues it declares are quorum queues
(RabbitMQ's replicated queue type), and the Redis transport's options are dropped.
"""

from __future__ import annotations

from services.ai_worker.celery_app import celery

celery.conf.update(
    task_default_queue_type="quorum",
    task_create_missing_queue_type="quorum",
    broker_transport_options={},
)
app = celery
