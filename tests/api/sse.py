"""A small Server-Sent Events reader for the stream tests: messages and comments as they arrive."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import requests

TABLE_FRAMES = frozenset({"presence", "message"})  # the stream's frames that are not log events (no id)


@dataclass
class Message:
    """One SSE block: an event (``id``, ``event``, ``data``), a ``retry:`` or a comment line."""

    id: str | None = None
    event: str | None = None
    data: list[str] = field(default_factory=list)
    retry: int | None = None
    comments: list[str] = field(default_factory=list)

    def json(self) -> Any:
        return json.loads("\n".join(self.data))

    @property
    def logged(self) -> bool:
        """An event of the game's log (not a comment, a ``retry:``, or a table frame: presence, a quick message)."""
        return self.event is not None and self.event not in TABLE_FRAMES


def messages(response: requests.Response) -> Iterator[Message]:
    """The blocks of a streamed response (``stream=True``) as they arrive; ends when the server closes.

    One parser per response (kept on it), so reading in several steps loses nothing it buffered."""
    parser = response.__dict__.get("_sse_parser")
    if parser is None:
        parser = response.__dict__["_sse_parser"] = _parse(response)
    return parser


def _parse(response: requests.Response) -> Iterator[Message]:
    buffer = b""
    current = Message()
    for chunk in response.iter_content(chunk_size=65536):  # chunked encoding: one HTTP chunk at a time
        buffer += chunk
        while b"\n" in buffer:
            raw, buffer = buffer.split(b"\n", 1)
            line = raw.decode().rstrip("\r")
            if not line:
                yield current
                current = Message()
            elif line.startswith(":"):
                current.comments.append(line[1:].strip())
            else:
                name, _, value = line.partition(":")
                value = value.removeprefix(" ")
                if name == "id":
                    current.id = value
                elif name == "event":
                    current.event = value
                elif name == "data":
                    current.data.append(value)
                elif name == "retry":
                    current.retry = int(value)


def open_stream(
    base: str,
    game_id: str,
    token: str | None = None,
    last_event_id: int | None = None,
    after: int | None = None,
    timeout: float = 60,
) -> requests.Response:
    headers = {"Accept": "text/event-stream"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)
    params = {"after": after} if after is not None else None
    return requests.get(
        f"{base}/v1/games/{game_id}/stream", headers=headers, params=params, stream=True, timeout=timeout
    )


def events_until(response: requests.Response, last_seq: int) -> list[dict[str, Any]]:
    """The events of the stream up to and including ``last_seq`` (checking the framing of each)."""
    found: list[dict[str, Any]] = []
    for message in messages(response):
        if not message.logged:
            continue
        event = message.json()
        assert message.id == str(event["seq"]) and message.event == event["type"]
        found.append(event)
        if event["seq"] >= last_seq:
            break
    return found
