"""The body read at the WSGI edge (services/api/http/request_body.py): at most MAX_CONTENT_LENGTH bytes however it
is framed, and within a deadline. (Over real gunicorn, raw sockets, both worker classes: test_edge_gunicorn.py.)"""

from __future__ import annotations

import io
import socket
from typing import Any

import orjson
import pytest
from werkzeug.test import EnvironBuilder, run_wsgi_app

from services.api.app import create_app
from services.api.games.record import GameRecord
from services.api.http.request_body import BodyGuard, BodyTimeout, ReadWatchdog
from services.api.problems import ApiError
from services.api.store.memory_store import MemoryStore

from ..helpers import auth, wait_until

LIMIT = 16 * 1024


def chunked_environ(path: str, body: bytes, headers: dict[str, str]) -> dict[str, Any]:
    """A POST as gunicorn hands over a chunked one: the chunks decoded in ``wsgi.input``, no Content-Length,
    ``wsgi.input_terminated`` set."""
    environ = EnvironBuilder(path=path, method="POST", headers=headers, content_type="application/json").get_environ()
    environ.pop("CONTENT_LENGTH", None)
    environ.update({"HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input_terminated": True, "wsgi.input": io.BytesIO(body)})
    return environ


@pytest.fixture
def app():
    settings = {
        "STORE": MemoryStore(GameRecord.from_stored),
        "AI_ENABLED": False,
        "RATE_LIMIT_ENABLED": False,
        "RECORDS_ENABLED": False,
    }
    return create_app({**settings, "LOG_LEVEL": "WARNING", "MAX_CONTENT_LENGTH": LIMIT})


def test_a_chunked_body_over_the_limit_is_413_and_changes_nothing(app):
    client = app.test_client()
    created = client.post("/v1/games", json={"seats": [{"type": "human"}] * 4}).get_json()
    game_id, token = created["game_id"], created["seats"][1]["token"]
    padded = b'{"bid": 3}' + b" " * (4 * LIMIT)  # valid JSON in its first 16 KB: werkzeug's cut was accepted
    body, status, _ = run_wsgi_app(app, chunked_environ(f"/v1/games/{game_id}/bids", padded, auth(token)))
    assert status.startswith("413"), status
    assert orjson.loads(b"".join(body))["code"] == "payload_too_large"
    assert client.get(f"/v1/games/{game_id}").get_json()["version"] == 1
    within = b'{"bid": 3}' + b" " * (LIMIT - 10)  # exactly the limit
    body, status, _ = run_wsgi_app(app, chunked_environ(f"/v1/games/{game_id}/bids", within, auth(token)))
    assert status.startswith("200"), b"".join(body)
    assert client.get(f"/v1/games/{game_id}").get_json()["version"] == 2


def seen_by(guard_app: Any) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []

    def app(environ, start_response):
        seen.append({"length": environ.get("CONTENT_LENGTH"), "body": environ["wsgi.input"].read()})
        start_response("200 OK", [])
        return [b""]

    guard_app.app = app
    return seen


def guarded(read=lambda environ, size, seconds: environ["wsgi.input"].read(size)) -> BodyGuard:
    return BodyGuard(lambda environ, start_response: [], 10, 1.0, read)


def call(guard: BodyGuard, environ: dict[str, Any]) -> None:
    list(guard(environ, lambda status, headers, exc_info=None: None))


def test_a_chunked_body_is_handed_on_with_its_length_up_to_one_byte_past_the_limit():
    guard = guarded()
    seen = seen_by(guard)
    for body in (b"x" * 10, b"y" * 50):
        call(
            guard, {"HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input_terminated": True, "wsgi.input": io.BytesIO(body)}
        )
    assert seen == [{"length": "10", "body": b"x" * 10}, {"length": "11", "body": b"y" * 11}]


def test_a_declared_length_over_the_limit_is_left_unread_and_a_short_body_is_refused():
    guard = guarded()
    seen = seen_by(guard)
    call(guard, {"CONTENT_LENGTH": "11", "wsgi.input": io.BytesIO(b"z" * 11)})  # the app answers 413 unread
    assert seen == [{"length": "11", "body": b"z" * 11}]
    with pytest.raises(ApiError) as refused:
        call(guard, {"CONTENT_LENGTH": "8", "wsgi.input": io.BytesIO(b"short")})  # the client left mid-body
    assert refused.value.status == 400


def test_a_body_past_its_deadline_reads_as_408():
    def late(environ, size, seconds):
        raise BodyTimeout

    guard = guarded(late)
    seen_by(guard)
    with pytest.raises(ApiError) as refused:
        call(guard, {"CONTENT_LENGTH": "5", "wsgi.input": io.BytesIO(b"never")})
    assert refused.value.status == 408 and refused.value.code == "request_timeout"


def test_the_watchdog_ends_a_read_that_outlives_its_deadline():
    """A thread blocked in recv() on a client that sent 1 byte of 100 gets end-of-file at the deadline."""
    server, client = socket.socketpair()
    try:
        client.sendall(b"{")
        stream = server.makefile("rb")
        with pytest.raises(BodyTimeout):
            ReadWatchdog().read({"gunicorn.socket": server, "wsgi.input": stream}, 100, 0.2)
    finally:
        server.close()
        client.close()


def test_the_watchdog_leaves_a_read_that_ends_in_time_and_its_socket_alone():
    watchdog = ReadWatchdog()
    server, client = socket.socketpair()
    try:
        client.sendall(b"hello")
        assert watchdog.read({"gunicorn.socket": server, "wsgi.input": server.makefile("rb")}, 5, 0.1) == b"hello"
        # the watchdog drops the ended watch once its deadline has passed, without shutting the socket
        wait_until(lambda: not watchdog._heap, "the watchdog never passed the deadline", bound=10)
        client.sendall(b"again")
        assert server.recv(5) == b"again"
    finally:
        server.close()
        client.close()
