"""Liveness, readiness: what an orchestrator asks before sending traffic.

``/healthz`` answers while the process can serve at all.  ``/readyz`` checks
Redis (the game store), the Celery broker, and that at least one worker
consumes each AI queue in use; it answers 503 problem+json naming what is
missing.  Worker discovery (a broadcast to the workers) is cached for
``READY_CACHE_SECONDS`` so frequent probes stay cheap.  Which port serves them, and which
limits apply there: :mod:`services.api.http.listeners`.

With several broker nodes (``AI_BROKER_URLS``) each is checked and reported under ``checks.nodes``;
``broker`` is ok while any node answers and ``workers`` counts every node's.  One node down does not
make the pod unready: only that node's games are affected (their computers play basic's move after the
deadline), and taking every API pod out of service would stop every game.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, current_app, jsonify

from services.api.ai_seats.brokers import connect_once
from services.api.problems import ApiError, problem_response

health = Blueprint("health", __name__)


@health.get("/healthz")
def healthz() -> Response:
    return jsonify(status="ok")


def worker_queues(node: int = 0) -> dict[str, int]:
    """How many workers consume each queue of broker node ``node`` (cached per app and node, so apps with
    other brokers never share it)."""
    ttl = float(current_app.config["READY_CACHE_SECONDS"])
    caches = current_app.extensions.setdefault("spades.ready_cache", {})
    cache = caches.setdefault(node, {"at": None, "queues": {}})
    if cache["at"] is None or time.monotonic() - cache["at"] > ttl:
        celery = current_app.extensions["spades.celery_nodes"][node]
        replies = celery.control.inspect(timeout=1.0).active_queues() or {}
        counts: dict[str, int] = {}
        for queues in replies.values():
            for queue in queues:
                counts[queue["name"]] = counts.get(queue["name"], 0) + 1
        cache.update(at=time.monotonic(), queues=counts)
    return cache["queues"]


def node_readiness(node: int, queues: list[str]) -> dict[str, Any]:
    """Broker node ``node``'s ``{"broker": "ok"|"unreachable", "workers": {queue: n}}``."""
    celery = current_app.extensions["spades.celery_nodes"][node]
    try:
        with celery.connection_for_write() as conn:
            connect_once(conn)
    except Exception:
        return {"broker": "unreachable", "workers": dict.fromkeys(queues, 0)}
    try:
        counts = worker_queues(node)
    except Exception:
        counts = {}
    return {"broker": "ok", "workers": {q: counts.get(q, 0) for q in queues}}


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
    queues = [q.strip() for q in current_app.config["AI_QUEUES"].split(",") if q.strip()]
    nodes = {
        str(node): node_readiness(node, queues) for node in range(len(current_app.extensions["spades.celery_nodes"]))
    }
    reachable = [node for node in nodes.values() if node["broker"] == "ok"]
    checks["broker"] = "ok" if reachable else "unreachable"
    if not reachable:
        missing.append("broker")
    workers = {q: sum(node["workers"][q] for node in nodes.values()) for q in queues}
    checks["workers"] = workers
    if len(nodes) > 1:
        checks["nodes"] = nodes
    missing += [f"worker for {q}" for q, n in workers.items() if n == 0]
    if missing:
        error = ApiError(503, "not_ready", "Not ready: missing " + ", ".join(missing) + ".", checks=checks)
        return problem_response(error, {"Retry-After": "5"})
    return jsonify(status="ready", checks=checks)
