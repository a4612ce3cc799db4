"""The browser client at ``/play``: static files from ``services/web/static/`` (or ``WEB_ROOT``).

The page is plain ES modules and CSS (no build step); it talks to the server
only through the public ``/v1`` contract, like any third-party app. Files are
served with ``Cache-Control: no-cache`` and an ETag, so a browser revalidates
(a cheap 304) and never runs a stale module after a deploy. ``/`` redirects
to ``/play``. The page's Content-Security-Policy (self only, no inline
script or style) is set by :class:`services.api.http.wsgi_edge.Edge`.

Installing: ``/play/manifest.webmanifest`` (``application/manifest+json``) and the service worker
``/play/sw.js`` (``sw.js`` beside this file), sent with the client's build id and file list filled in:
the build id is a hash of every file of the client, so any changed file changes ``sw.js`` and the
browser installs the new worker (docs/web-client.md, "Installing and offline"). The page itself is sent with
the build id it belongs to (``<meta name="client-build">``), and ``/play/version.json`` says the server's:
an open page that finds them different takes the new files at its next natural point (``release.js``).
"""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path

from flask import Blueprint, Response, current_app, redirect, request, send_from_directory

WEB_ROOT = Path(__file__).resolve().parent / "static"
WORKER = Path(__file__).resolve().parent / "sw.js"  # the service worker's source, outside the static files

web = Blueprint("web", __name__)


def web_root() -> Path:
    """The client's files: ``WEB_ROOT`` when set (tests serve a copy they change), else the packaged ones."""
    configured = current_app.config.get("WEB_ROOT")
    return Path(configured) if configured else WEB_ROOT


class ClientBuild:
    """The client's build id (a hash of its files and of the worker's source) and the addresses of its
    files, worked out again only when a file's size or modification time changes (a stat per file)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._known: dict[Path, tuple[tuple, str, list[str]]] = {}

    @staticmethod
    def files(root: Path) -> list[Path]:
        return sorted(
            p
            for p in root.rglob("*")
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts)
        )

    def of(self, root: Path) -> tuple[str, list[str]]:
        files = self.files(root)
        signature = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in [*files, WORKER])
        with self._lock:
            known = self._known.get(root)
            if known and known[0] == signature:
                return known[1], known[2]
        digest = hashlib.sha256()
        for path in [*files, WORKER]:
            name = path.relative_to(root).as_posix() if path != WORKER else "\0worker"
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
        build = digest.hexdigest()[:16]
        urls = [
            "/play" if p.name == "index.html" and p.parent == root else f"/play/{p.relative_to(root).as_posix()}"
            for p in files
        ]
        with self._lock:
            self._known[root] = (signature, build, urls)
        return build, urls


client_build = ClientBuild()


def _static(path: str) -> Response:
    response = send_from_directory(web_root(), path, max_age=0)
    response.cache_control.no_cache = True
    response.cache_control.public = None
    return response


@web.get("/")
def root() -> Response:
    return redirect("/play", code=302)  # type: ignore[return-value]


BUILD_MARK = "__BUILD__"  # in index.html's <meta name="client-build">, the build id it is sent with


@web.get("/play")
def play_page() -> Response:
    """The page, with the build id of the files it loads, so that it can tell when the server has newer ones."""
    build, _ = client_build.of(web_root())
    page = (web_root() / "index.html").read_text(encoding="utf-8")
    return _built(page.replace(BUILD_MARK, build, 1), "text/html", build)


@web.get("/play/version.json")
def client_version() -> Response:
    """The build id of the client the server has now (a page asks between rounds and from time to time)."""
    build, _ = client_build.of(web_root())
    return _built(json.dumps({"build": build}), "application/json", build)


def _built(body: str, mimetype: str, build: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.set_etag(build)
    response.cache_control.no_cache = True
    return response.make_conditional(request)


@web.get("/play/manifest.webmanifest")
def manifest() -> Response:
    response = _static("manifest.webmanifest")
    response.mimetype = "application/manifest+json"
    return response


@web.get("/play/sw.js")
def service_worker() -> Response:
    """The worker with this build's id and files; it may control ``/play`` itself (``Service-Worker-Allowed``:
    a worker under ``/play/`` may otherwise control only ``/play/…``)."""
    build, urls = client_build.of(web_root())
    source = WORKER.read_text(encoding="utf-8")
    body = source.replace(f'"{BUILD_MARK}"', json.dumps(build)).replace('["__FILES__"]', json.dumps(urls))
    response = _built(body, "text/javascript", build)
    response.headers["Service-Worker-Allowed"] = "/play"
    return response


@web.get("/play/<path:path>")
def play_asset(path: str) -> Response:
    return _static(path)
