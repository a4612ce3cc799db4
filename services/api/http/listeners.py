"""The public and the internal listener: which one a request came in on, and what each serves.

gunicorn listens on ``API_BIND`` and, with ``INTERNAL_BIND`` set, on a second address for probes and scrapes
(gunicorn.conf.py).  A request's ``SERVER_PORT`` is the port of the socket that accepted it: gunicorn's
``http/wsgi.py`` ``create`` takes it from the listener's ``getsockname()`` for a TCP bind, never from the
``Host`` header (only a unix-socket bind falls back to ``Host``, which gunicorn.conf.py refuses beside an
internal listener), and werkzeug's ProxyFix keeps the socket's value in ``werkzeug.proxy_fix.orig`` should it
ever be told to rewrite the port from a forwarded header.  So a client cannot pick a listener by what it sends.

- The internal listener serves ``/healthz``, ``/readyz`` and ``/metrics`` only (404 for anything else), none of
  them rate-limited: the kubelet's probes and Prometheus's scrapes never starve.
- The public listener serves everything, but ``/readyz`` and ``/metrics`` only with ``PUBLIC_OPS_ENDPOINTS``
  (else 404, as for a path that does not exist: ``/readyz`` lists the queue and worker layout).  Served there,
  both spend the client address's request budget (``RATE_LIMIT_PER_ADDRESS``) like a ``/v1`` call: each costs
  Redis and broker round trips, so a client polling them must not take the service from others.
  ``/healthz`` (no I/O) stays on both and is never limited.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Flask, request
from werkzeug.exceptions import NotFound

from services.api.config import internal_port

OPS_ENDPOINTS = frozenset({"health.healthz", "health.readyz", "metrics"})  # all the internal listener serves
GUARDED_ENDPOINTS = frozenset({"health.readyz", "metrics"})  # on the public listener only with PUBLIC_OPS_ENDPOINTS


@dataclass(frozen=True)
class Listeners:
    """The port of the internal listener (None: there is none) and whether the public one serves ops endpoints."""

    internal_port: str | None
    public_ops: bool

    def internal(self, environ: dict[str, Any]) -> bool:
        """Whether the request came in on the internal listener (by the accepting socket's port)."""
        if self.internal_port is None:
            return False
        socket_side = environ.get("werkzeug.proxy_fix.orig") or environ
        return socket_side.get("SERVER_PORT") == self.internal_port

    def serves(self, endpoint: str | None, environ: dict[str, Any]) -> bool:
        """Whether the listener the request came in on serves ``endpoint`` (None: no route matched)."""
        if self.internal(environ):
            return endpoint in OPS_ENDPOINTS
        return self.public_ops or endpoint not in GUARDED_ENDPOINTS

    def limited(self, endpoint: str | None, environ: dict[str, Any]) -> bool:
        """Whether an ops endpoint spends the address's request budget: ``/readyz`` and ``/metrics``, publicly."""
        return endpoint in GUARDED_ENDPOINTS and not self.internal(environ)


def init_listeners(app: Flask) -> Listeners:
    """The app's :class:`Listeners`, and a 404 for a request its listener does not serve.

    Registered before the rate limits, so such a request spends no budget.  With one listener serving
    everything (no ``INTERNAL_BIND``, ``PUBLIC_OPS_ENDPOINTS`` on: a laptop) no check runs at all."""
    listeners = Listeners(internal_port(app.config), bool(app.config["PUBLIC_OPS_ENDPOINTS"]))
    app.extensions["spades.listeners"] = listeners
    if listeners.internal_port is None and listeners.public_ops:
        return listeners

    @app.before_request
    def served_on_this_listener() -> None:
        if not listeners.serves(request.endpoint, request.environ):
            raise NotFound()

    return listeners
