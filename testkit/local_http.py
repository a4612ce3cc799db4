"""A throwaway HTTP server on a free loopback port, for the tests of HTTP clients that need no service behind them:
the test writes the handler (what the server answers), this module runs it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class QuietHandler(BaseHTTPRequestHandler):
    """A request handler that logs nothing: a test's output is its assertions, not one line a request."""

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def local_http_server(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """``handler`` served by a threading server on a free loopback port (a daemon thread); yields the base URL,
    ``http://127.0.0.1:PORT``.  Stopped and its socket closed on exit."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
