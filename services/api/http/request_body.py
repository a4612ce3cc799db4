"""The request body, read at the WSGI edge before the app runs: at most ``MAX_CONTENT_LENGTH`` bytes however
the client framed it, within ``BODY_READ_TIMEOUT_SECONDS``.

werkzeug enforces ``max_content_length`` on a body without a ``Content-Length`` (chunked: gunicorn decodes it
and sets ``wsgi.input_terminated``) by wrapping the stream in a ``LimitedStream`` that stops reading at the
limit and returns what it read, so a chunked body over the limit reached the app cut to the limit and was
accepted. Here such a body is read up to one byte past the limit and handed on with that ``Content-Length``:
the app's one rule for a declared length (``413 payload_too_large``) then refuses it, and every reader
(``request.get_data``, ``get_json``) sees a plain body.

A client that sends its body slowly, or never, must not hold a connection and its worker slot: the read has a
deadline. Under gevent a ``gevent.Timeout`` bounds it; a thread (gthread) blocked in ``recv`` cannot be
interrupted, so :class:`ReadWatchdog` shuts the socket's read side at the deadline and the ``recv`` returns.
A socket timeout would bound each ``recv``, not the read: a client sending a byte just before each timeout
would hold the thread for as many timeouts as the body has bytes. A body that times out is answered
``408 request_timeout``; gunicorn closes a connection whose body it could not finish reading.
"""

from __future__ import annotations

import contextlib
import heapq
import io
import itertools
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask

from services.api.problems import MAX_INT64, ApiError, ascii_int, invalid_request

log = logging.getLogger(__name__)

Environ = dict[str, Any]
StartResponse = Callable[..., Any]
BodyRead = Callable[[Environ, int, float], bytes]  # (environ, bytes wanted, seconds) → bytes; raises BodyTimeout


class BodyTimeout(Exception):
    """The body did not arrive within the deadline."""


def read_under_gevent(environ: Environ, size: int, seconds: float) -> bytes:
    """Read up to ``size`` bytes of ``wsgi.input`` in at most ``seconds`` (a greenlet: a ``gevent.Timeout``)."""
    import gevent

    timer = gevent.Timeout(seconds, BodyTimeout)
    timer.start()
    try:
        return environ["wsgi.input"].read(size)
    finally:
        timer.close()


class _Watch:
    __slots__ = ("done", "fired", "sock")

    def __init__(self, sock: socket.socket) -> None:
        self.sock, self.done, self.fired = sock, False, False


class ReadWatchdog:
    """One daemon thread per process that shuts the read side of a socket whose body read outlived its deadline,
    so the thread blocked reading it gets end-of-file. Watches are ended under the same lock the thread shuts
    under: a socket is never shut after its read ended (it may then carry the response and the next request)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._heap: list[tuple[float, int, _Watch]] = []
        self._order = itertools.count()
        self._thread: threading.Thread | None = None  # started at the first watch, in the process that serves

    def read(self, environ: Environ, size: int, seconds: float) -> bytes:
        """Read up to ``size`` bytes of ``wsgi.input`` in at most ``seconds``: a :data:`BodyRead`."""
        sock = environ.get("gunicorn.socket")
        if sock is None:  # not served by gunicorn: nothing to shut
            return environ["wsgi.input"].read(size)
        watch = self.watch(sock, seconds)
        try:
            data = environ["wsgi.input"].read(size)
        except Exception:
            if self.end(watch):
                raise BodyTimeout from None
            raise
        if self.end(watch):
            raise BodyTimeout
        return data

    def watch(self, sock: socket.socket, seconds: float) -> _Watch:
        """Shut ``sock``'s read side in ``seconds`` unless :meth:`end` is called first."""
        watch = _Watch(sock)
        entry = (time.monotonic() + seconds, next(self._order), watch)
        with self._lock:
            heapq.heappush(self._heap, entry)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="body-read-watchdog", daemon=True)
                self._thread.start()
            elif self._heap[0] is entry:  # the thread sleeps until a later deadline, or for good
                self._cond.notify()
        return watch

    def end(self, watch: _Watch) -> bool:
        """End ``watch``; whether its deadline had passed (its socket was shut)."""
        with self._lock:
            watch.done = True
            return watch.fired

    def _run(self) -> None:
        with self._cond:
            while True:
                while self._heap and self._heap[0][2].done:
                    heapq.heappop(self._heap)
                if not self._heap:
                    self._cond.wait()
                    continue
                wait = self._heap[0][0] - time.monotonic()
                if wait > 0:
                    self._cond.wait(wait)
                    continue
                watch = heapq.heappop(self._heap)[2]
                watch.fired = True
                with contextlib.suppress(OSError):  # already closed
                    watch.sock.shutdown(socket.SHUT_RD)


class HeadDeadline:
    """gthread workers: a request's line and headers must arrive within ``seconds`` of a thread taking its
    connection, or the watchdog shuts the socket's read side and gunicorn closes it as a client gone. (gevent's
    worker reads them under a ``gevent.Timeout`` of ``keepalive`` seconds itself; gunicorn 27 has no setting for
    it, and its gthread worker, once a first byte arrived, waits for the rest as long as it takes.)

    Installed by gunicorn.conf.py: :meth:`around` wraps the worker's ``handle``, and gunicorn's ``pre_request``
    hook calls :meth:`headers_read`, in the same thread, once the headers are in."""

    def __init__(self, seconds: float, watchdog: ReadWatchdog) -> None:
        self.seconds, self.watchdog = seconds, watchdog
        self._current = threading.local()

    def around(self, handle: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def handle_within(conn: Any) -> Any:
            self._current.watch = self.watchdog.watch(conn.sock, self.seconds)
            try:
                return handle(conn)
            finally:
                self.headers_read()

        return handle_within

    def headers_read(self) -> None:
        watch = getattr(self._current, "watch", None)
        if watch is not None:
            self._current.watch = None
            self.watchdog.end(watch)


def body_guard(app: Flask, greenlets: bool) -> BodyGuard:
    """``app``'s WSGI app behind a :class:`BodyGuard` of its ``MAX_CONTENT_LENGTH`` and
    ``BODY_READ_TIMEOUT_SECONDS``: under gevent (``greenlets``) a ``gevent.Timeout`` bounds a read, under threads
    the process's :class:`ReadWatchdog` (``app.extensions["spades.read_watchdog"]``, which gunicorn.conf.py also
    gives a gthread worker's request heads)."""
    read = read_under_gevent
    if not greenlets:
        app.extensions["spades.read_watchdog"] = watchdog = ReadWatchdog()
        read = watchdog.read
    limit, seconds = int(app.config["MAX_CONTENT_LENGTH"]), float(app.config["BODY_READ_TIMEOUT_SECONDS"])
    return BodyGuard(app.wsgi_app, limit, seconds, read)


class _Refused:
    """``wsgi.input`` of a body that could not be read: every read raises the request's answer."""

    def __init__(self, error: Callable[[], ApiError]) -> None:
        self.error = error

    def read(self, size: int = -1) -> bytes:
        raise self.error()

    def readinto(self, buffer: Any) -> int:
        raise self.error()

    def readline(self, size: int = -1) -> bytes:
        raise self.error()


class BodyGuard:
    """WSGI middleware: reads each request's body (a ``Content-Length`` within ``limit``, or a chunked one up to
    ``limit`` + 1 bytes) within ``seconds`` before the app runs, and hands the app a buffered ``wsgi.input`` with
    its ``CONTENT_LENGTH``. A body that did not arrive in time reads as ``408 request_timeout``; one that
    could not be read (the client went away, a malformed chunk) as ``400 invalid_request``. A declared length
    over ``limit`` is left unread: the app refuses it (``413``) without reading it."""

    def __init__(self, app: Callable[[Environ, StartResponse], Iterable[bytes]], limit: int, seconds: float,
                 read: BodyRead) -> None:  # fmt: skip
        self.app, self.limit, self.seconds, self.read = app, limit, seconds, read

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if chunked:  # a server that does not decode chunks (no wsgi.input_terminated) gives the app no body
            size = self.limit + 1 if environ.get("wsgi.input_terminated") else 0
        else:
            length = ascii_int(environ.get("CONTENT_LENGTH"), MAX_INT64)
            size = length if length is not None and length <= self.limit else 0
        if size:
            environ["wsgi.input"] = self._buffered(environ, size, chunked)
        return self.app(environ, start_response)

    def _buffered(self, environ: Environ, size: int, chunked: bool) -> _Refused | io.BytesIO:
        try:
            data = self.read(environ, size, self.seconds)
        except BodyTimeout:
            log.info("request body not received within %s s", self.seconds)
            return _Refused(self._timed_out)
        except Exception as error:  # the client went away, or gunicorn refused a malformed chunk
            log.info("request body unreadable: %s", error.__class__.__name__)
            return _Refused(_unreadable)
        if chunked:
            environ["CONTENT_LENGTH"] = str(len(data))
            del environ["HTTP_TRANSFER_ENCODING"]
        elif len(data) < size:  # the connection ended before the declared length
            return _Refused(_unreadable)
        return io.BytesIO(data)

    def _timed_out(self) -> ApiError:
        return ApiError(408, "request_timeout", f"The request body did not arrive within {self.seconds:g} s.")


def _unreadable() -> ApiError:
    return invalid_request([{"field": "body", "message": "incomplete or malformed (the connection ended early?)"}])
