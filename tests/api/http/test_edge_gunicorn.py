"""The HTTP edge on real gunicorn, both worker classes, over raw sockets: crafted numbers are 400s, a chunked
body over MAX_CONTENT_LENGTH is a 413 that changes nothing, and a client that sends its body or its request
head slowly is answered (408) or cut off within the configured bound instead of holding a worker."""

from __future__ import annotations

import base64
import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
import requests

from tests.conftest import run_gunicorn

from ..contract import ContractSession
from ..helpers import auth

pytestmark = pytest.mark.integration

LIMIT = 16 * 1024
CLIENT_TIMEOUT = 30  # the client's own bound, far above the server's: only there so a broken run ends


@pytest.fixture(scope="module", params=["gevent", "gthread"])
def server(request, redis_db1) -> Iterator[str]:
    env = {
        "API_WORKER_CLASS": request.param,
        "BODY_READ_TIMEOUT_SECONDS": "1",
        "API_KEEPALIVE": "1",  # bounds a request's head (line and headers) under both worker classes
        "MAX_CONTENT_LENGTH": str(LIMIT),
    }
    with run_gunicorn(env, workers=1, threads=4) as base:
        yield base


def new_game(base: str) -> tuple[str, str]:
    created = requests.post(f"{base}/v1/games", json={"seats": [{"type": "human"}] * 4}, timeout=10).json()
    return created["game_id"], created["seats"][1]["token"]  # seat 1 bids first


def version(base: str, game_id: str) -> int:
    return requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()["version"]


def connect(base: str) -> socket.socket:
    url = urlsplit(base)
    return socket.create_connection((url.hostname, url.port), timeout=CLIENT_TIMEOUT)


def read_response(sock: socket.socket) -> tuple[int, bytes]:
    """One response's status and body (by its Content-Length)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"closed before a response: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    length = int(next(v for k, v in headers.items() if k.lower() == "content-length"))
    while len(body) < length:
        body += sock.recv(65536)
    return int(lines[0].split()[1]), body


def head(method: str, path: str, headers: dict[str, str]) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", *(f"{k}: {v}" for k, v in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def chunked(body: bytes, size: int = 4096) -> bytes:
    pieces = [body[i : i + size] for i in range(0, len(body), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces) + b"0\r\n\r\n"


def test_a_chunked_body_over_the_limit_is_413_and_the_move_is_not_applied(server):
    game_id, token = new_game(server)
    headers = {**auth(token), "Content-Type": "application/json", "Transfer-Encoding": "chunked"}
    padded = b'{"bid": 3}' + b" " * (4 * LIMIT)  # valid JSON within its first 16 KB
    with connect(server) as sock:
        sock.sendall(head("POST", f"/v1/games/{game_id}/bids", headers) + chunked(padded))
        status, body = read_response(sock)
    assert status == 413 and b'"code":"payload_too_large"' in body
    assert version(server, game_id) == 1
    with connect(server) as sock:  # within the limit, the same framing is a move
        sock.sendall(head("POST", f"/v1/games/{game_id}/bids", headers) + chunked(b'{"bid": 3}'))
        assert read_response(sock)[0] == 200
    assert version(server, game_id) == 2


def test_a_body_that_does_not_arrive_is_408_and_its_connection_closed(server):
    game_id, token = new_game(server)
    headers = {**auth(token), "Content-Type": "application/json", "Content-Length": "100"}
    with connect(server) as sock:
        sock.sendall(head("POST", f"/v1/games/{game_id}/bids", headers) + b"{")  # 1 byte of 100, then nothing
        status, body = read_response(sock)
        assert status == 408 and b'"code":"request_timeout"' in body
        assert sock.recv(1) == b""  # closed by the server (the client's timeout would raise)
    assert version(server, game_id) == 1


def test_a_request_head_that_does_not_arrive_is_cut_off(server):
    with connect(server) as sock:
        sock.sendall(b"GET /v1/rules HTTP/1.1\r\nHo")
        assert sock.recv(1) == b""  # closed, nothing answered: the client's timeout would raise


def cursor_of(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def test_crafted_numbers_are_400_problems(server):
    session = ContractSession(server)
    game_id, token = new_game(server)
    refused = [
        (
            "If-Match",
            session.post(f"/v1/games/{game_id}/bids", json={"bid": 3}, headers={**auth(token), "If-Match": "²"}),
        ),
        ("after", session.get(f"/v1/games/{game_id}/events?after=%C2%B2")),
        ("wait", session.get(f"/v1/games/{game_id}/events?wait=%C2%B9")),
        ("cursor", session.get(f"/v1/records?cursor={cursor_of(f'{2**63}:{game_id}')}")),
    ]
    for field, response in refused:
        assert response.status_code == 400, (field, response.text)
        assert response.headers["Content-Type"] == "application/problem+json"
        assert [error["field"] for error in response.json()["errors"]] == [field]
    assert version(server, game_id) == 1
