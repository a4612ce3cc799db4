"""The browser client at ``/play``: static files from ``services/web/static/``.

The page is plain ES modules and CSS (no build step); it talks to the server
only through the public ``/v1`` contract, like any third-party app. Files are
served with ``Cache-Control: no-cache`` and an ETag, so a browser revalidates
(a cheap 304) and never runs a stale module after a deploy. ``/`` redirects
to ``/play``. The page's Content-Security-Policy (self only, no inline
script or style) is set by :class:`services.api.http.wsgi_edge.Edge`.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, redirect, send_from_directory

WEB_ROOT = Path(__file__).resolve().parent / "static"

web = Blueprint("web", __name__)


def _static(path: str) -> Response:
    response = send_from_directory(WEB_ROOT, path, max_age=0)
    response.cache_control.no_cache = True
    response.cache_control.public = None
    return response


@web.get("/")
def root() -> Response:
    return redirect("/play", code=302)  # type: ignore[return-value]


@web.get("/play")
def play_page() -> Response:
    return _static("index.html")


@web.get("/play/<path:path>")
def play_asset(path: str) -> Response:
    return _static(path)
