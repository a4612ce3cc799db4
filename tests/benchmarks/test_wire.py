"""The benchmarks' lean HTTP client reads what a real server sends, and refuses what it can't read."""

from __future__ import annotations

import json
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from benchmarks.wire import CLIENTS, Connection
from testkit.local_http import QuietHandler, local_http_server


class Echo(QuietHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as gunicorn

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        out = json.dumps({"path": self.path, "body": body.decode(), "auth": self.headers.get("Authorization")})
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out.encode())

    def do_GET(self) -> None:
        if self.path == "/chunked":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.wfile.write(b"2\r\nhi\r\n0\r\n\r\n")
            return
        out = b"x" * 100_000  # several reads' worth
        self.send_response(200)
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)


@pytest.fixture
def server() -> Iterator[int]:
    """The echo server's port (the lean clients take a host and a port)."""
    with local_http_server(Echo) as base:
        yield urlsplit(base).port


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_requests_and_responses_round_trip_on_one_connection(server, client):
    conn = CLIENTS[client]("127.0.0.1", server)
    for i in range(3):  # the same keep-alive connection each time
        status, body = conn.request("POST", f"/p{i}", b'{"bid":3}', {"Authorization": "Bearer t"})
        assert status == 201
        assert json.loads(body) == {"path": f"/p{i}", "body": '{"bid":3}', "auth": "Bearer t"}
        status, body = conn.request("GET", "/big")
        assert status == 200 and body == b"x" * 100_000
    conn.close()


def test_a_chunked_response_is_refused_not_misread(server):
    conn = Connection("127.0.0.1", server)
    with pytest.raises(ValueError, match="chunked"):
        conn.request("GET", "/chunked")
    conn.close()
