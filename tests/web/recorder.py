"""Records every request a page makes (Playwright's request events) and checks the page's API
calls against openapi.yaml with openapi-core, like tests/api/contract.py does for requests."""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

from openapi_core.testing import MockRequest, MockResponse
from playwright.sync_api import Page, Request

from tests.api.contract import openapi


@dataclass
class Exchange:
    method: str
    url: str
    headers: dict[str, str]
    body: bytes | None
    status: int
    response_headers: dict[str, str]
    response_body: bytes


def is_stream(url: str) -> bool:
    return urlsplit(url).path.endswith("/stream")


class Recorder:
    """Keeps each finished request of a page with its response.

    Event streams are recorded from the DevTools protocol as their bytes arrive: chromium reports a
    text/event-stream that the page reads through a ReadableStream as failed (net::ERR_ABORTED) even
    when the page read it to its clean end, and then keeps no body for Playwright's Response.body()."""

    def __init__(self, page: Page) -> None:
        self.exchanges: list[Exchange] = []
        self.streams: dict[str, Exchange] = {}  # DevTools request id -> its exchange, as it arrives
        self.ended: list[Exchange] = []  # streams whose connection is over, in the order they ended
        self.page = page
        page.on("requestfinished", self._finished)
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.on("Network.requestWillBeSent", self._stream_sent)
        self.cdp.on("Network.responseReceived", self._stream_answered)
        self.cdp.on("Network.dataReceived", self._stream_data)
        self.cdp.on("Network.loadingFinished", self._stream_ended)
        self.cdp.on("Network.loadingFailed", self._stream_ended)
        self.cdp.send("Network.enable")

    def _stream_sent(self, event: dict) -> None:
        request = event["request"]
        if is_stream(request["url"]):
            headers = {name.lower(): value for name, value in request["headers"].items()}
            self.streams[event["requestId"]] = Exchange(request["method"], request["url"], headers, None, 0, {}, b"")

    def _stream_answered(self, event: dict) -> None:
        exchange = self.streams.get(event["requestId"])
        if exchange is None:
            return
        exchange.status = event["response"]["status"]
        exchange.response_headers = {name.lower(): value for name, value in event["response"]["headers"].items()}
        self.exchanges.append(exchange)
        if exchange.status != 200:
            return
        try:  # from here on each dataReceived carries its bytes
            buffered = self.cdp.send("Network.streamResourceContent", {"requestId": event["requestId"]})
            exchange.response_body += base64.b64decode(buffered["bufferedData"])
        except Exception:  # it ended already (a game_over at once): its body is kept whole
            body = self.cdp.send("Network.getResponseBody", {"requestId": event["requestId"]})
            exchange.response_body = base64.b64decode(body["body"]) if body["base64Encoded"] else body["body"].encode()

    def _stream_data(self, event: dict) -> None:
        exchange = self.streams.get(event["requestId"])
        if exchange is not None and event.get("data"):
            exchange.response_body += base64.b64decode(event["data"])

    def _stream_ended(self, event: dict) -> None:
        exchange = self.streams.get(event["requestId"])
        if exchange is not None:
            self.ended.append(exchange)

    def wait_for_ended_streams(self, count: int, bound: float = 90.0) -> None:
        """Return once `count` streams have ended; fail after `bound` seconds. Each short wait lets
        Playwright deliver the DevTools events it holds (a plain sleep would not)."""
        deadline = time.monotonic() + bound
        while len(self.ended) < count:
            assert time.monotonic() < deadline, f"fewer than {count} streams ended in {bound} s"
            self.page.wait_for_timeout(50)

    def _finished(self, request: Request) -> None:
        if is_stream(request.url):
            return
        response = request.response()
        if response is None:
            return
        try:
            body = response.body()
        except Exception:  # a body the page navigated away from: the status still counts
            body = b""
        self.exchanges.append(
            Exchange(
                request.method,
                request.url,
                request.all_headers(),
                request.post_data_buffer,
                response.status,
                response.all_headers(),
                body,
            )
        )

    def api_calls(self) -> list[Exchange]:
        return [e for e in self.exchanges if urlsplit(e.url).path.startswith("/v1/")]


def check_exchange(exchange: Exchange, base: str) -> None:
    """Raise unless the call is a documented operation whose request and response fit the contract."""
    url = urlsplit(exchange.url)
    request = MockRequest(
        base,
        exchange.method.lower(),
        url.path,
        args=dict(parse_qsl(url.query)),
        headers=exchange.headers,
        data=exchange.body,
        content_type=exchange.headers.get("content-type", "application/json"),
    )
    content_type = exchange.response_headers.get("content-type", "application/json").split(";")[0]
    response = MockResponse(exchange.response_body, exchange.status, exchange.response_headers, content_type)
    spec = openapi()
    spec.validate_request(request)
    try:
        spec.validate_response(request, response)
    except Exception as error:
        raise AssertionError(
            f"{exchange.method} {exchange.url} -> {exchange.status} {exchange.response_body[:200]!r}"
        ) from error
