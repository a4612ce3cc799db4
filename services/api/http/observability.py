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
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from services.api.http.wsgi_edge import REQUEST_ID, STARTED
from services.api.metrics import LATENCY, REQUESTS, STORE_ERRORS

access_log = logging.getLogger("services.api.access")  # one line per request, by name


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
    logger = logging.getLogger("services")  # every logger is named after its module, below this one
    logger.handlers[:] = [handler]
    logger.setLevel(level.upper())
    logger.propagate = False


def note_seat(seat: int | None) -> None:
    """The seat a request acts for, for its access log line (the one place it is set)."""
    g.seat = seat


def request_id() -> str:
    """This request's id (see :class:`services.api.http.wsgi_edge.Edge`); ``"-"`` outside a request."""
    return request.environ.get(REQUEST_ID, "-") if has_request_context() else "-"


class QueueDepthCollector(Collector):
    """``spades_ai_queue_depth``: messages waiting in each AI queue of each broker node (``node``: its
    position in ``AI_BROKER_URLS``, "0" with one broker), read at scrape time."""

    def __init__(self, depth: Callable[[], dict[tuple[str, str], int]]) -> None:
        self.depth = depth

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "spades_ai_queue_depth", "AI turns waiting in each queue of each broker node.", labels=["node", "queue"]
        )
        try:
            for (node, queue), n in self.depth().items():
                family.add_metric([node, queue], n)
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


def metrics_text(queue_depth: Callable[[], dict[tuple[str, str], int]]) -> bytes:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        SizedFilesCollector(registry)
        body = generate_latest(registry)
    else:
        body = generate_latest(REGISTRY)
    live = CollectorRegistry()
    live.register(QueueDepthCollector(queue_depth))
    return body + generate_latest(live)


def init_observability(app: Flask, queue_depth: Callable[[], dict[tuple[str, str], int]]) -> None:
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
