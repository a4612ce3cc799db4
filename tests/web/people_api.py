"""The people API as the browser tests see it until the clocks part of the API is merged (table life
and the lobby are: presence, quick messages, rematch, rejoin codes, quick match and public tables are
the real server's): every stand-in route in ONE place (Playwright's ``page.route``). Everything else
is the real server: games are created, viewed, claimed and played for real; only the answers that do
not exist yet are made up here, to the contract's names.

At integration a test points at the real server by dropping its ``PeopleApi`` (or the routes of the
parts merged): the pages send the same requests either way, which ``sent`` records.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, Route

VIEW = re.compile(r"/v1/games/[A-Za-z0-9_-]+$")  # GET a game's view (not /stream, /events, …)
STREAM = re.compile(r"/v1/games/[A-Za-z0-9_-]+/stream")
SSE_HEADERS = {"Content-Type": "text/event-stream", "Cache-Control": "no-store"}


def now_ms() -> int:
    return int(time.time() * 1000)


def sse(frames: list[tuple[str, dict]], retry_ms: int = 600_000) -> str:
    """An SSE body: `retry:` (long: the page does not come back during a test), then each frame (with
    `id:` when its data has a `seq`, as log events and lobby changes do)."""
    body = f"retry: {retry_ms}\n\n"
    for name, data in frames:
        body += (f"id: {data['seq']}\n" if "seq" in data else "") + f"event: {name}\ndata: {json.dumps(data)}\n\n"
    return body


@dataclass
class PeopleApi:
    page: Page
    sent: list[tuple[str, str, object]] = field(default_factory=list)  # (method, path, body) of stand-in routes
    # clocks: `clock` and `server_time_ms` added to every game view (clock None: no clock added); the
    # deadline is set per answer from `left_ms`, the time to move left (on top of the seat's reserve)
    clock: dict | None = None
    left_ms: int = 18_000
    # clocks: log events (seat_away, turn_timed_out, seat_back, …) served as the game's stream (None: the real one)
    stream_frames: list[tuple[str, dict]] | None = None
    # the service out of reach: the game's stream answers this status (503: as while it fails over); None: served
    stream_status: int | None = None
    # clocks: POST /v1/games reaches the real server without `options.clock`
    strip_clock_option: bool = False

    def install(self) -> PeopleApi:
        page = self.page
        page.route(VIEW, self._view)  # clocks: `clock`, `server_time_ms`
        page.route(STREAM, self._stream)  # clocks: its log events
        page.route(re.compile(r"/v1/games/[^/]+/seats/\d/back$"), self._ok)  # clocks: "I'm back"
        if self.strip_clock_option:
            page.route(re.compile(r"/v1/games$"), self._create)  # clocks: `options.clock`
        return self

    def requests(self, method: str, pattern: str) -> list[object]:
        """Bodies of the stand-in requests of this method whose path matches ``pattern``."""
        return [body for m, path, body in self.sent if m == method and re.search(pattern, path)]

    # ---- stand-ins ---------------------------------------------------------------------------------

    def _record(self, route: Route) -> object:
        request = route.request
        path = request.url.split("//", 1)[1].split("/", 1)[1]
        body = request.post_data_json if request.post_data else None
        self.sent.append((request.method, "/" + path, body))
        return body

    def _create(self, route: Route) -> None:
        body = self._record(route)
        options = {k: v for k, v in (body.get("options") or {}).items() if k != "clock"}
        route.continue_(post_data=json.dumps({**body, "options": options}))

    def _view(self, route: Route) -> None:
        if route.request.method != "GET":
            return route.fallback()
        try:
            response = route.fetch()
            if response.status != 200:
                return route.fulfill(response=response)
            view = response.json()
        except PlaywrightError:
            return None  # the page went elsewhere while its view was read (e.g. into the rematch)
        now = now_ms()
        view.setdefault("server_time_ms", now)
        if self.clock is not None:
            clock = {**self.clock}
            seat = clock.get("seat", view["turn"])
            reserve = clock["reserve_ms"][seat] if seat is not None else 0
            clock.update(seat=seat, deadline_ms=now + self.left_ms + reserve)
            view["clock"] = clock
        route.fulfill(response=response, json=view)

    def _stream(self, route: Route) -> None:
        if self.stream_status is not None:
            problem = {
                "type": "about:blank",
                "title": "Unavailable",
                "status": self.stream_status,
                "code": "unavailable",
            }
            return route.fulfill(status=self.stream_status, json=problem, headers={"Retry-After": "1"})
        if self.stream_frames is None:
            return route.fallback()
        route.fulfill(status=200, headers=SSE_HEADERS, body=sse(self.stream_frames))

    def _ok(self, route: Route) -> None:
        self._record(route)
        route.fulfill(status=204)
