"""Liveness and readiness over HTTP against real gunicorn, checked against openapi.yaml.

Readiness needs Redis, the Celery broker and a worker on every AI queue; the
"no worker" case runs on a Redis server of its own, so the session's AI
worker (on the shared server) can't answer for it.
"""

from __future__ import annotations

import time

import pytest

from services.players import WORKER_QUEUES
from testkit.processes import free_port

from ..contract import ContractSession

pytestmark = pytest.mark.integration  # real Redis / gunicorn / Celery processes

AI_QUEUES = WORKER_QUEUES  # both classes of every level


def test_healthz_is_ok(api_server):
    session = ContractSession(api_server)
    response = session.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert session.checked == 1


def test_readyz_names_every_ai_queue_without_a_worker(gunicorn_factory, private_redis_url):
    session = ContractSession(gunicorn_factory(redis=private_redis_url))
    response = session.get("/readyz")
    assert response.status_code == 503
    assert response.headers["Content-Type"].startswith("application/problem+json")
    assert response.headers["Retry-After"].isdigit()
    problem = response.json()
    assert problem["code"] == "not_ready"
    assert problem["checks"] == {"redis": "ok", "broker": "ok", "workers": dict.fromkeys(AI_QUEUES, 0)}
    for queue in AI_QUEUES:
        assert f"worker for {queue}" in problem["detail"]
    assert session.checked == 1


def test_readyz_is_ready_with_a_worker_on_every_queue(api_server, ai_worker):
    session = ContractSession(api_server)
    deadline = time.monotonic() + 20  # an earlier probe's "no worker" answer may be cached for a few seconds
    response = session.get("/readyz")
    while response.status_code != 200 and time.monotonic() < deadline:
        time.sleep(0.5)
        response = session.get("/readyz")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "ready"
    assert body["checks"]["redis"] == "ok" and body["checks"]["broker"] == "ok"
    assert set(body["checks"]["workers"]) == set(AI_QUEUES)
    assert all(n >= 1 for n in body["checks"]["workers"].values())


def test_readyz_names_redis_when_it_is_unreachable(gunicorn_factory):
    closed = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    session = ContractSession(gunicorn_factory(redis=closed))
    response = session.get("/readyz")
    assert response.status_code == 503
    problem = response.json()
    assert problem["code"] == "not_ready"
    assert problem["checks"]["redis"] == "unreachable"
    assert problem["checks"]["broker"] == "unreachable"
    assert "redis" in problem["detail"] and "broker" in problem["detail"]
    assert session.get("/healthz").status_code == 200, "liveness does not depend on Redis"
