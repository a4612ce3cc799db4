"""The API's sending side of Celery: one app per broker node, with a result backend that subscribes to nothing.

The API only sends ``ai.decide`` and ``ai.hint`` by name and reads their results itself
(:mod:`services.api.ai_seats.results`), so its Celery apps are producers only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from celery import Celery
from celery.backends.redis import RedisBackend


class SenderRedisBackend(RedisBackend):
    """Celery's Redis result backend for a process that sends tasks and reads results without it.

    Celery's :meth:`~celery.app.base.Celery.send_task` calls the backend's ``on_task_call``, which for
    Redis SUBSCRIBEs Celery's own result consumer to ``celery-task-meta-<id>``, so that
    ``AsyncResult.get()`` could wait on it (and dropping the ``AsyncResult`` UNSUBSCRIBEs it).  The
    API never calls ``get()``: each process's :class:`services.api.ai_seats.results.ResultChannels` subscribes
    the tasks it awaits, the deadline sweep and :meth:`AiDispatcher.stored_result` read stored results
    with GET.  Skipping that subscription saves two broker commands a task and a connection whose
    replies nobody reads; results are stored, published and read as Celery always does."""

    def on_task_call(self, producer: Any, task_id: str) -> None:
        return None


def sender_backend_url(url: str) -> str:
    """``url`` with :class:`SenderRedisBackend` as its backend class (Celery's ``<backend>+<url>`` form,
    as in ``db+postgresql://``) for a Redis URL; any other backend is left as given."""
    scheme = url.partition("://")[0]
    if scheme in ("redis", "rediss"):
        return f"{SenderRedisBackend.__module__}:{SenderRedisBackend.__qualname__}+{url}"
    return url


def celery_for_node(name: str, config: Mapping[str, Any], broker: str, result_backend: str) -> Celery:
    """The sending Celery app of one broker node (``config``: the API's settings)."""
    backend = sender_backend_url(result_backend)
    timeout = float(config["REDIS_SOCKET_TIMEOUT"])
    celery = Celery(name, broker=broker, backend=backend, set_as_current=False)
    # Celery's settings read CELERY_BROKER_URL and CELERY_RESULT_BACKEND from the environment before the URLs
    # given here, and with AI_BROKER_URLS those still name node 0 (its workers read them): the read and write
    # URLs and the backend class are what the environment does not replace.
    celery.backend_cls = backend
    celery.conf.update(
        broker_read_url=broker,
        broker_write_url=broker,
        broker_connection_retry_on_startup=True,
        broker_connection_timeout=timeout,
        broker_transport_options={"socket_timeout": timeout, "socket_connect_timeout": timeout},
        redis_socket_timeout=timeout,
        redis_socket_connect_timeout=timeout,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
    )
    return celery
