"""services.api.live.peer: a client's connection told open or closed from its socket's TCP state (real loopback
sockets), and the stream that ends at its next renewal once its client has gone."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from services.api.games.audience import Audience
from services.api.live.peer import peer_connected
from services.api.live.stream import KEEP_ALIVE, StreamSettings, sse_frames
from tests.api.helpers import wait_until
from tests.api.live.test_waiting_caps import RecordingHub, ticking


@pytest.fixture
def connection() -> Iterator[tuple[socket.socket, socket.socket]]:
    """A loopback TCP connection: (the server's accepted socket, the client's)."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.create_connection(listener.getsockname())
        served, _ = listener.accept()
    yield served, client
    served.close()
    client.close()


def test_a_connection_is_open_until_its_client_closes_it(connection):
    served, client = connection
    assert peer_connected(served)
    client.sendall(b"GET / HTTP/1.1\r\n\r\n")  # what a request left unread changes nothing
    assert peer_connected(served)
    client.close()
    wait_until(lambda: not peer_connected(served), "the client's close is seen without reading or writing")


def test_what_cannot_be_told_counts_as_connected():
    left, right = socket.socketpair()  # not TCP (a Unix socket behind a proxy)
    with left, right:
        assert peer_connected(left)
    assert peer_connected(None), "no socket in the WSGI environ"
    assert peer_connected(left), "a socket closed here: its stream ends by itself"


def test_a_stream_asks_before_each_renewal_and_ends_once_its_client_has_gone():
    hub, renewed, answers = RecordingHub(), [], iter([True, True, False])
    settings = StreamSettings(heartbeat_seconds=15.0, max_seconds=600.0, page_size=500, renew_seconds=5.0)
    frames = list(
        sse_frames(
            hub,
            "g",
            Audience(None),
            0,
            settings,
            clock=ticking(),
            renew=lambda: renewed.append(1),
            connected=lambda: next(answers),
        )  # type: ignore[arg-type]
    )
    assert len(renewed) == 2, "no renewal once the client had gone"
    assert len(hub.waits) <= 3 * 5 and set(frames[1:]) <= {KEEP_ALIVE}, "it ended then, long before its lifetime"
