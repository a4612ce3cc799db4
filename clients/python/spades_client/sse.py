"""The push stream (``GET /v1/games/{id}/stream``): an SSE parser and an iterator of events that reconnects.

The parser follows the HTML standard's event-stream interpretation (as the web client's ``sse.js`` does):
``id``, ``event``, ``data`` and ``retry`` fields, comments (``: keep-alive``) ignored, a blank line dispatches.
The iterator resumes after every cut with ``Last-Event-ID`` (the last ``seq`` it yielded), so it neither misses
nor repeats an event; it ends after ``game_over`` or on ``204`` (the game is over and nothing is left), and
raises :class:`~spades_client.errors.TooFarBehind` when the log no longer holds its resume point (reload the
view and start again after its ``last_seq``), and :class:`~spades_client.errors.Unauthorized` when its seat token
no longer holds the seat (the server ends a seat's stream when the seat changes hands; follow on without it).
"""

from __future__ import annotations

import codecs
import json
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import requests
from urllib3.exceptions import ProtocolError, ReadTimeoutError

from spades_client.errors import Retryable
from spades_client.models import Event

log = logging.getLogger(__name__)

END_TYPE = "game_over"  # the server closes the stream right after it
TABLE_FRAMES = frozenset({"presence", "message"})  # the stream's table frames (no id): skipped, a bot needs none
DEFAULT_RETRY_MS = 2000  # until the stream's first ``retry:`` says otherwise
STREAM_READ_TIMEOUT = 45.0  # seconds without a byte: the server sends a keep-alive every 15 s by default
LINE_END = re.compile(r"\r\n|\r|\n")  # the server ends lines with LF; a CR and LF split by a read read as two ends


@dataclass(frozen=True)
class Message:
    """One dispatched SSE message: ``id`` is the last event id so far, ``event`` defaults to ``message``."""

    id: str
    event: str
    data: str


class SseParser:
    """Feed decoded lines; :meth:`line` returns the message a blank line completes, else ``None``."""

    def __init__(self) -> None:
        self.last_event_id = ""
        self.retry_ms: int | None = None
        self._data: list[str] = []
        self._event = ""

    def line(self, line: str) -> Message | None:
        if line == "":
            return self._dispatch()
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self.last_event_id = value
        elif name == "retry" and value.isascii() and value.isdigit():
            self.retry_ms = int(value)
        return None

    def _dispatch(self) -> Message | None:
        data, event = self._data, self._event
        self._data, self._event = [], ""
        if not data:
            return None
        return Message(self.last_event_id, event or "message", "\n".join(data))


def lines_of(response: requests.Response, size: int = 65536) -> Iterator[str]:
    """The body's lines as they arrive.  ``read1`` returns what has arrived (``iter_lines`` would wait for a
    whole buffer, or for the end of a body that is not chunked, while an event sits in the socket)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    pending = ""
    while chunk := response.raw.read1(size):
        pending += decoder.decode(chunk)
        *lines, pending = LINE_END.split(pending)
        yield from lines


class EventStream:
    """The events of one game after ``after``, over as many connections as it takes.

    ``open_connection(last_seq)`` makes one request (the client's, with the seat token and
    ``Last-Event-ID``) and returns the streaming response, or ``None`` for ``204``; it raises the
    problem of a refused one.  :meth:`drop` cuts the current connection (as a network fault would): the
    iterator reconnects and resumes.  At most ``max_failures`` reconnects in a row without an event."""

    def __init__(
        self,
        open_connection: Callable[[int], requests.Response | None],
        after: int = 0,
        max_failures: int = 10,
        sleep: Callable[[float], None] = time.sleep,
        model: Any = Event,
    ) -> None:
        self._open = open_connection
        self._model = model  # what each message's data is: a game's Event, or the lobby's TableChange
        self.last_seq = after
        self.max_failures = max_failures
        self.reconnects = 0
        self._sleep = sleep
        self._response: requests.Response | None = None
        self._lock = threading.Lock()

    def drop(self) -> None:
        """Cut the connection in use now, if any (a fault drill; the iterator reconnects)."""
        with self._lock:
            if self._response is not None:
                self._response.close()

    def __iter__(self) -> Iterator[Event]:
        failures = 0
        retry_ms = DEFAULT_RETRY_MS
        while True:
            if failures > self.max_failures:
                raise ConnectionError(f"the stream failed {failures} times in a row")
            try:
                response = self._open(self.last_seq)
            except Retryable as refused:
                failures += 1
                self._sleep(refused.retry_after or retry_ms / 1000)
                continue
            except (requests.ConnectionError, requests.Timeout) as error:
                failures += 1
                log.warning("stream connection failed (%s); reconnecting", error)
                self._sleep(retry_ms / 1000)
                continue
            if response is None:  # 204: over, nothing left
                return
            parser = SseParser()
            with self._lock:
                self._response = response
            try:
                for line in lines_of(response):
                    message = parser.line(line)
                    retry_ms = parser.retry_ms or retry_ms
                    if message is None or message.event in TABLE_FRAMES:  # presence, quick messages: not log events
                        continue
                    event = self._model.from_dict(json.loads(message.data))
                    self.last_seq = event.seq
                    failures = 0
                    yield event
                    if event.type == END_TYPE:
                        return
            except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError, requests.Timeout,
                    ProtocolError, ReadTimeoutError, AttributeError, ValueError) as error:  # fmt: skip
                # a cut connection surfaces as one of these: the body is read from urllib3 itself (``read1``), so a
                # server process that dies mid-body raises urllib3's ProtocolError, not requests' wrapper of it,
                # and a closed response reads as AttributeError or ValueError inside urllib3; an event that was
                # half received is re-sent after the reconnect
                log.info("stream cut after seq %d (%s); resuming", self.last_seq, type(error).__name__)
                failures += 1
            finally:
                with self._lock:
                    self._response = None
                response.close()
            self.reconnects += 1
            self._sleep(min(retry_ms, DEFAULT_RETRY_MS) / 1000 if failures else 0)
