"""Records every request a page makes (Playwright's request events) and checks the page's API
calls against openapi.yaml with openapi-core, like tests/api/contract.py does for requests."""

from __future__ import annotations

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


class Recorder:
    """Keeps each finished request of a page with its response."""

    def __init__(self, page: Page) -> None:
        self.exchanges: list[Exchange] = []
        self.unfinished: list[str] = []
        page.on("requestfinished", self._finished)

    def _finished(self, request: Request) -> None:
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
