"""A lean HTTP/1.1 keep-alive client for throughput benchmarks.

The load generator shares the machine's two cores with the servers it
measures, so its own cost per request is paid out of the figures.  The
standard library's ``http.client`` parses every response header through the
``email`` package, which made it cost a service request ~70 µs more than a
floor request (more headers, bigger bodies): a benchmark artefact, not
server cost.  This client writes each request in one ``sendall`` and reads a
response by its status line and ``Content-Length`` only (the servers here
never send chunked bodies; it refuses one rather than misread it).
"""

from __future__ import annotations

import http.client
import socket


class Connection:
    """One persistent connection; ``request`` returns ``(status, body)``."""

    def __init__(self, host: str, port: int, timeout: float = 30.0) -> None:
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.host = f"Host: {host}:{port}\r\n"
        self.buffer = bytearray()

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        head = f"{method} {path} HTTP/1.1\r\n{self.host}"
        for name, value in (headers or {}).items():
            head += f"{name}: {value}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self.sock.sendall(head.encode() + b"\r\n" + (body or b""))
        return self._response()

    def _response(self) -> tuple[int, bytes]:
        buffer = self.buffer
        while (end := buffer.find(b"\r\n\r\n")) < 0:
            self._fill()
        head = bytes(buffer[:end]).lower()
        del buffer[: end + 4]
        if b"transfer-encoding:" in head:
            raise ValueError("chunked responses are not supported by this client")
        length = 0
        at = head.find(b"\r\ncontent-length:")
        if at >= 0:
            stop = head.find(b"\r\n", at + 2)
            length = int(head[at + 17 : stop if stop >= 0 else len(head)])
        while len(buffer) < length:
            self._fill()
        body = bytes(buffer[:length])
        del buffer[:length]
        return int(head[9:12]), body

    def _fill(self) -> None:
        chunk = self.sock.recv(1 << 16)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        self.buffer += chunk

    def close(self) -> None:
        self.sock.close()


class StdlibConnection:
    """The same interface on ``http.client``, to compare the lean client with
    the standard library's side by side (``benchmarks.api --client stdlib``)."""

    def __init__(self, host: str, port: int, timeout: float = 30.0) -> None:
        self.conn = http.client.HTTPConnection(host, port, timeout=timeout)

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        self.conn.request(method, path, body=body, headers={"Content-Type": "application/json", **(headers or {})})
        response = self.conn.getresponse()
        return response.status, response.read()

    def close(self) -> None:
        self.conn.close()


CLIENTS = {"lean": Connection, "stdlib": StdlibConnection}
