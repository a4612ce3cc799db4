"""Liveness and readiness over HTTP against real gunicorn, checked against openapi.yaml.

Readiness needs Redis, the Celery broker and a worker on every AI queue; the
"no worker" case runs on a Redis server of its own, so the session's AI
worker (on the shared server) can't answer for it.
"""

from __future__ import annotations

import time

import pytest

from services.computers import WORKER_QUEUES
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


def test_readyz_reports_each_broker_node_and_stays_ready_on_one(gunicorn_factory, private_redis_url):
    """Two AI broker nodes, the second down: it is named under checks.nodes, but the broker counts as up (only
    that node's games wait for the fallback), so what is missing is the workers, not the broker."""
    closed = f"redis://127.0.0.1:{free_port()}/0"
    env = {"AI_BROKER_URLS": f"{private_redis_url},{closed}"}
    session = ContractSession(gunicorn_factory(env, redis=private_redis_url))
    response = session.get("/readyz")
    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["redis"] == "ok" and checks["broker"] == "ok"
    assert checks["nodes"] == {
        "0": {"broker": "ok", "workers": dict.fromkeys(AI_QUEUES, 0)},
        "1": {"broker": "unreachable", "workers": dict.fromkeys(AI_QUEUES, 0)},
    }
    assert "broker" not in response.json()["detail"]
    assert session.checked == 1
