"""One JSON log line per request, and Prometheus metrics.

Metrics work under several gunicorn workers: ``gunicorn.conf.py`` points
``PROMETHEUS_MULTIPROC_DIR`` at a fresh directory before anything imports
prometheus-client, every worker writes its samples there, and ``/metrics``
aggregates them (prometheus-client's multiprocess mode).  The AI queue depth
is read live from the broker at scrape time.

Logs never carry tokens, hands or bodies: only ids, route, status, timing.
"""

from __future__ import annotations

import glob
import json
import logging
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import orjson
from flask import Flask, Response, g, has_request_context, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from services.api.http.wsgi_edge import REQUEST_ID, STARTED

REQUESTS = Counter("spades_http_requests_total", "HTTP requests served.", ["method", "route", "status"])
LATENCY = Histogram(
    "spades_http_request_duration_seconds",
    "Time to serve an HTTP request (long polls included).",
    ["method", "route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
MOVES = Counter(
    "spades_moves_total", "Moves offered, by kind and outcome (accepted or the refusal code).", ["kind", "outcome"]
)
GAMES_CREATED = Counter("spades_games_created_total", "Games created.")
GAMES_FINISHED = Counter("spades_games_finished_total", "Games that reached game_over.")
AI_DECISION_SECONDS = Histogram(
    "spades_ai_decision_seconds",
    "From sending an AI turn to the workers to applying its move.",
    ["level"],
    buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
AI_REISSUED = Counter(
    "spades_ai_decisions_reissued_total", "AI turns sent again after their deadline passed.", ["level"]
)
AI_DECISIONS_SENT = Counter("spades_ai_decisions_sent_total", "AI turns sent to the workers.", ["level"])
AI_RESULT_SUBSCRIPTIONS = Gauge(
    "spades_ai_result_subscriptions",
    "AI task results the result listeners are subscribed to (tasks sent, hints abandoned, awaiting results).",
    multiprocess_mode="livesum",
)
AI_RESULTS_RECEIVED = Counter(
    "spades_ai_results_received_total",
    "AI task results delivered to the result listeners, by what they were to the process: a decision it sent, "
    "a hint it abandoned, or neither (none expected: each process subscribes only to its own tasks).",
    ["kind"],
)
# livesum: the sum over live workers (a dead worker's waiting clients are gone with it)
FANOUT_LISTENERS = Gauge(
    "spades_fanout_listeners",
    "Waiting clients (long polls and streams) on the fan-out hubs.",
    multiprocess_mode="livesum",
)
FANOUT_SUBSCRIPTIONS = Gauge(
    "spades_fanout_subscriptions", "Games the fan-out hubs are subscribed to.", multiprocess_mode="livesum"
)
STORE_ERRORS = Counter("spades_store_errors_total", "Failed calls to the game store (Redis).", ["error"])

access_log = logging.getLogger("spades.access")


class JsonFormatter(logging.Formatter):
    """One JSON object per line, with whatever ``extra`` fields a call gave."""

    _SKIP = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        out.update({k: v for k, v in vars(record).items() if k not in self._SKIP})
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        try:  # orjson: a log line on every request is a measurable part of its cost
            return orjson.dumps(out, default=str).decode()
        except TypeError:  # what orjson refuses (integers beyond 64 bits): the standard library
            return json.dumps(out, default=str)


def configure_logging(level: str) -> None:
    """JSON lines on stderr for the service's own loggers."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    for name in ("spades", "services"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False


def request_id() -> str:
    """This request's id (see :class:`services.api.http.wsgi_edge.Edge`); ``"-"`` outside a request."""
    return request.environ.get(REQUEST_ID, "-") if has_request_context() else "-"


class QueueDepthCollector(Collector):
    """``spades_ai_queue_depth``: messages waiting in each AI queue, read at scrape time."""

    def __init__(self, depth: Callable[[], dict[str, int]]) -> None:
        self.depth = depth

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily("spades_ai_queue_depth", "AI turns waiting in each queue.", labels=["queue"])
        try:
            for queue, n in self.depth().items():
                family.add_metric([queue], n)
        except Exception:  # a scrape must not fail because the broker is down
            STORE_ERRORS.labels("broker").inc()
        yield family


def sized_metric_files(directory: str, pattern: str = "*.db") -> list[str]:
    """The workers' multiprocess files, less any still empty.

    prometheus-client creates a process's file and only then sizes it, and its reader fails on an
    empty one (struct.error), taking the whole scrape down: for a moment while a worker boots, and
    for good if the worker was killed in that moment (prometheus/client_python#1199).  An empty
    file holds no samples, and a sized one never shrinks, so leaving it out loses nothing."""
    files = []
    for path in glob.glob(os.path.join(directory, pattern)):
        try:
            if os.path.getsize(path) > 0:
                files.append(path)
        except FileNotFoundError:  # a dead worker's live gauges, removed since the glob
            pass
    return files


class SizedFilesCollector(multiprocess.MultiProcessCollector):
    """prometheus-client's multiprocess collector over :func:`sized_metric_files`."""

    def collect(self) -> Any:
        return self.merge(sized_metric_files(self._path), accumulate=True)


def metrics_text(queue_depth: Callable[[], dict[str, int]]) -> bytes:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        SizedFilesCollector(registry)
        body = generate_latest(registry)
    else:
        body = generate_latest(REGISTRY)
    live = CollectorRegistry()
    live.register(QueueDepthCollector(queue_depth))
    return body + generate_latest(live)


def init_observability(app: Flask, queue_depth: Callable[[], dict[str, int]]) -> None:
    """Request metrics, access log lines and ``GET /metrics``; the request id
    and start time come from :class:`services.api.http.wsgi_edge.Edge`."""
    request_metrics: dict[tuple[str, str, int], tuple[Any, Any]] = {}

    def metrics_for(method: str, route: str, status: int) -> tuple[Any, Any]:
        """The labelled children, looked up once per (method, route, status)."""
        key = (method, route, status)
        found = request_metrics.get(key)
        if found is None:
            found = (REQUESTS.labels(method, route, str(status)), LATENCY.labels(method, route))
            request_metrics[key] = found
        return found

    @app.after_request
    def _finish(response: Response) -> Response:
        req = request._get_current_object()  # type: ignore[attr-defined]  # one context lookup, not six
        environ = req.environ
        elapsed = time.perf_counter() - environ.get(STARTED, time.perf_counter())
        route = req.url_rule.rule if req.url_rule is not None else "unmatched"
        count, latency = metrics_for(req.method, route, response.status_code)
        count.inc()
        latency.observe(elapsed)
        if access_log.isEnabledFor(logging.INFO):
            # made and handled directly: Logger.info would also walk the stack to find
            # this line's file and number, which the line never shows
            record = access_log.makeRecord(
                access_log.name,
                logging.INFO,
                __file__,
                0,
                "request",
                (),
                None,
                extra={
                    "request_id": environ.get(REQUEST_ID, "-"),
                    "method": req.method,
                    "route": route,
                    "status": response.status_code,
                    "duration_ms": round(elapsed * 1000, 2),
                    "game_id": (req.view_args or {}).get("game_id"),
                    "seat": getattr(g, "seat", None),
                    "remote": req.remote_addr,
                },
            )
            access_log.handle(record)
        return response

    @app.get("/metrics")
    def metrics() -> Response:
        return Response(metrics_text(queue_depth), mimetype=CONTENT_TYPE_LATEST)
