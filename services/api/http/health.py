"""Liveness, readiness: what an orchestrator asks before sending traffic.

``/healthz`` answers while the process can serve at all.  ``/readyz`` checks
Redis (the game store), the Celery broker, and that at least one worker
consumes each AI queue in use; it answers 503 problem+json naming what is
missing.  Worker discovery (a broadcast to the workers) is cached for
``READY_CACHE_SECONDS`` so frequent probes stay cheap.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, current_app, jsonify

from services.api.problems import ApiError, problem_response

health = Blueprint("health", __name__)


@health.get("/healthz")
def healthz() -> Response:
    return jsonify(status="ok")


def worker_queues() -> dict[str, int]:
    """How many workers consume each queue (cached per app, so apps with other brokers never share it)."""
    ttl = float(current_app.config["READY_CACHE_SECONDS"])
    cache = current_app.extensions.setdefault("spades.ready_cache", {"at": None, "queues": {}})
    if cache["at"] is None or time.monotonic() - cache["at"] > ttl:
        celery = current_app.extensions["celery"]
        replies = celery.control.inspect(timeout=1.0).active_queues() or {}
        counts: dict[str, int] = {}
        for queues in replies.values():
            for queue in queues:
                counts[queue["name"]] = counts.get(queue["name"], 0) + 1
        cache.update(at=time.monotonic(), queues=counts)
    return cache["queues"]


@health.get("/readyz")
def readyz() -> Response:
    checks: dict[str, Any] = {}
    missing: list[str] = []
    try:
        current_app.extensions["spades.store"].ping()
        checks["redis"] = "ok"
    except Exception:
        checks["redis"] = "unreachable"
        missing.append("redis")
    celery = current_app.extensions["celery"]
    try:
        with celery.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=1.0)
        checks["broker"] = "ok"
    except Exception:
        checks["broker"] = "unreachable"
        missing.append("broker")
    queues = [q.strip() for q in current_app.config["AI_QUEUES"].split(",") if q.strip()]
    workers = {}
    if "broker" not in missing:
        try:
            counts = worker_queues()
            workers = {q: counts.get(q, 0) for q in queues}
        except Exception:
            workers = dict.fromkeys(queues, 0)
    else:
        workers = dict.fromkeys(queues, 0)
    checks["workers"] = workers
    missing += [f"worker for {q}" for q, n in workers.items() if n == 0]
    if missing:
        error = ApiError(503, "not_ready", "Not ready: missing " + ", ".join(missing) + ".", checks=checks)
        return problem_response(error, {"Retry-After": "5"})
    return jsonify(status="ready", checks=checks)
