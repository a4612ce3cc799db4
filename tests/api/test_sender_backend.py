"""The API's Celery app sends tasks without subscribing Celery's own result consumer, and results
are still stored, published and read as before (real Redis, no worker: the test stores the result)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import redis
from celery import Celery
from flask import Flask

from services.api.ai_seats.results import result_channel
from services.api.ai_seats.senders import SenderRedisBackend, sender_backend_url
from services.api.app import celery_init_app
from tests.conftest import redis_url

SENDER_TEST_DB = 11
pytestmark = pytest.mark.integration  # real Redis

QUEUE = "test.sender-backend"  # nobody consumes it: the sent message stays in its list


@pytest.fixture
def client() -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url(SENDER_TEST_DB))
    client.flushdb()
    yield client
    client.flushdb()
    client.close()


def api_celery() -> Celery:
    app = Flask("sender-backend-test")
    url = redis_url(SENDER_TEST_DB)
    app.config.update(CELERY_BROKER_URL=url, CELERY_RESULT_BACKEND=url, REDIS_URL=url, REDIS_SOCKET_TIMEOUT=5)
    return celery_init_app(app)


def subscribers(client: redis.Redis, task_id: str) -> int:
    ((_, count),) = client.pubsub_numsub(result_channel(task_id))
    return int(count)


def test_only_redis_urls_get_the_sender_backend():
    assert sender_backend_url("redis://h:1/0") == "services.api.ai_seats.senders:SenderRedisBackend+redis://h:1/0"
    assert sender_backend_url("rediss://h:1/0").endswith("+rediss://h:1/0")
    assert sender_backend_url("sentinel://h:1/0") == "sentinel://h:1/0"


def test_a_send_subscribes_nothing_and_the_task_is_queued(client: redis.Redis):
    celery = api_celery()
    assert isinstance(celery.backend, SenderRedisBackend)
    task_id = str(uuid.uuid4())
    sent = celery.send_task("ai.decide", task_id=task_id, kwargs={"n": 1}, queue=QUEUE)  # held: stays awaitable
    assert subscribers(client, task_id) == 0
    assert client.llen(QUEUE) == 1
    assert sent.id == task_id
    celery.close()


def test_a_plain_celery_app_subscribes_every_send(client: redis.Redis):
    """What the sender backend removes: Celery's Redis backend subscribes its consumer to each sent task."""
    url = redis_url(SENDER_TEST_DB)
    celery = Celery("plain", broker=url, backend=url, set_as_current=False)
    task_id = str(uuid.uuid4())
    sent = celery.send_task("ai.decide", task_id=task_id, kwargs={"n": 1}, queue=QUEUE)
    assert subscribers(client, task_id) == 1
    del sent  # dropping the result unsubscribes: a SUBSCRIBE and an UNSUBSCRIBE for nothing
    celery.close()


def test_results_are_still_published_stored_and_read(client: redis.Redis):
    celery = api_celery()
    task_id = str(uuid.uuid4())
    celery.send_task("ai.decide", task_id=task_id, kwargs={"n": 1}, queue=QUEUE)
    listener = client.pubsub(ignore_subscribe_messages=True)
    listener.subscribe(result_channel(task_id))  # as services.api.ai_seats.results.ResultChannels does
    # the worker's side: Celery's own Redis backend stores the result and publishes it
    worker = Celery("worker", broker=redis_url(SENDER_TEST_DB), backend=redis_url(SENDER_TEST_DB))
    worker.backend.store_result(task_id, {"game_id": "g", "move": {"bid": 3}}, "SUCCESS")
    message = None
    for _ in range(10):  # the subscribe confirmation is skipped; each call blocks until something arrives
        if (message := listener.get_message(timeout=5.0)) is not None:
            break
    assert result_channel(task_id).encode() == message["channel"] and b'"SUCCESS"' in message["data"]
    stored = celery.AsyncResult(task_id)  # the deadline sweep's read (AiDispatcher.stored_result)
    assert stored.successful() and stored.result == {"game_id": "g", "move": {"bid": 3}}
    assert client.ttl(result_channel(task_id)) > 0  # kept until the API deletes it, or it expires
    listener.close()
    worker.close()
    celery.close()
