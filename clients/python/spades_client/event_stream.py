"""An event's push stream (``GET /v1/events/{id}/stream``) read as SSE: each message's body (the event as JSON), until
the event has finished; a cut connection is resumed with ``Last-Event-ID`` (the body's tag), so the server sends a
body again only if the event changed meanwhile, and a finished event whose last body was read answers ``204``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import requests

from spades_client.sse import STREAM_READ_TIMEOUT, SseParser, lines_of

if TYPE_CHECKING:
    from spades_client.client import SpadesClient


def follow_event(
    client: SpadesClient, operation: tuple[str, str], event_id: str, max_failures: int
) -> Iterator[dict[str, Any]]:
    last, failures = "", 0
    method, path = operation
    while failures <= max_failures:
        headers = {"Accept": "text/event-stream", **({"Last-Event-ID": last} if last else {})}
        try:
            response = client.session.request(
                method, client.base_url + path.format(event_id=event_id), headers={**client._auth(), **headers},
                stream=True, timeout=(client.timeout, STREAM_READ_TIMEOUT),
            )  # fmt: skip
        except (requests.ConnectionError, requests.Timeout):
            failures += 1
            client._sleep(1)
            continue
        if response.status_code == 204:  # finished, and its last body is the one read
            response.close()
            return
        if response.status_code != 200:
            raise client._problem(response)
        parser = SseParser()
        try:
            for line in lines_of(response):
                message = parser.line(line)
                if message is None or message.event != "event":
                    continue
                body = json.loads(message.data)
                last, failures = message.id, 0
                yield body
                if body.get("status") == "finished":
                    return
        except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError, requests.Timeout):
            failures += 1
        finally:
            response.close()
    raise ConnectionError(f"the event's stream failed {failures} times in a row")
