"""The WSGI layer around the Flask app: request ids, the headers every
response carries, and redirects that never name the ``Host``.

Working on the raw WSGI header list costs a fraction of Flask hooks editing
werkzeug ``Headers`` (those hooks were a measurable part of every move), and
it covers every response, werkzeug's own errors included.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

REQUEST_ID = "spades.request_id"  # environ keys this layer sets for the app
STARTED = "spades.started"

_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")  # fullmatch: "$" would admit a trailing newline
_JSON_CSP = "default-src 'none'; frame-ancestors 'none'"
_DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; frame-ancestors 'none'"
)
# The /play page: its own scripts, styles and images only (no inline script or style), API calls to itself,
# its own manifest and service worker (/play/manifest.webmanifest, /play/sw.js).
_PLAY_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "manifest-src 'self'; worker-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
_COMMON = [("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer")]
_JSON_HEADERS = [*_COMMON, ("Content-Security-Policy", _JSON_CSP)]
_DOCS_HEADERS = [*_COMMON, ("Content-Security-Policy", _DOCS_CSP)]
_PLAY_HEADERS = [*_COMMON, ("Content-Security-Policy", _PLAY_CSP)]
_NO_STORE = ("Cache-Control", "no-store")  # game views hold a private hand: never cached
_NO_STORE_PATHS = ("/v1/games", "/v1/matches", "/v1/tables")  # and a match its seat's token; tables change

StartResponse = Callable[..., Any]


def new_request_id() -> str:
    return os.urandom(16).hex()


def as_path(location: str) -> str:
    """A ``Location`` as a path on this server: werkzeug's routing redirects (``/play//x`` → ``/play/x``, ``/docs``
    → ``/docs/``) are absolute URLs built from the request's ``Host``, which the client chose. The API never
    redirects to another server."""
    if "://" not in location:
        return location
    parts = urlsplit(location)
    path = "/" + parts.path.lstrip("/")  # never "//host": a browser reads that as another server
    return f"{path}?{parts.query}" if parts.query else path


class Edge:
    """Gives each request an id (a well-formed ``X-Request-ID`` is kept, else a
    new random one) and its start time in the WSGI environ, and adds to the
    response ``X-Request-ID`` and the security headers the app did not set;
    ``/v1/games``, ``/v1/matches`` and ``/v1/tables`` responses are always ``Cache-Control: no-store``; every
    ``Location`` is a path (:func:`as_path`)."""

    def __init__(self, app: Callable[[dict[str, Any], StartResponse], Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        environ[STARTED] = time.perf_counter()
        incoming = environ.get("HTTP_X_REQUEST_ID", "")
        request_id = incoming if incoming and _REQUEST_ID.fullmatch(incoming) else new_request_id()
        environ[REQUEST_ID] = request_id
        path = environ.get("PATH_INFO", "")
        if path.startswith("/docs"):
            extra = _DOCS_HEADERS
        elif path == "/play" or path.startswith("/play/"):
            extra = _PLAY_HEADERS
        else:
            extra = _JSON_HEADERS
        no_store = path.startswith(_NO_STORE_PATHS)

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            present = {name.lower() for name, _ in headers}
            if "location" in present:
                headers[:] = [(n, as_path(v) if n.lower() == "location" else v) for n, v in headers]
            if no_store and "cache-control" in present:
                headers[:] = [h for h in headers if h[0].lower() != "cache-control"]
            headers += [h for h in extra if h[0].lower() not in present]
            if no_store:
                headers.append(_NO_STORE)
            headers.append(("X-Request-ID", request_id))
            return start_response(status, headers, exc_info)

        return self.app(environ, start)
