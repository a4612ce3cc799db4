"""Turns lost to the clock by a person whose move was sent in time, observed by the clients and settled by the
store: what a drill's load (:mod:`testkit.chaos_load`) saw of each seat's deadline, and whether the service let
the clock take a turn it was sent before the deadline.

* **What the client saw**: every view a seat's token reads (``GET /v1/games/{id}``) gives the version, whose
  clock runs and its ``deadline_ms``, and ``server_time_ms``: the server's clock at that answer.  A move sent
  with ``If-Match`` of that version by the seat whose clock runs is *sent in time* when the server's time as
  the client saw it then (the view's ``server_time_ms`` plus the seconds since it arrived) is before the
  deadline.  Its first attempt counts: a move re-sent after a lost connection or a 5xx was sent when it was
  first sent.
* **What it was answered**: the last attempt's status.  A ``409`` or ``412`` means the game moved on without
  it.
* **What the store says**: the game's kept log holds a ``turn_timed_out`` of that seat at that deadline: the
  clock took the turn and a stand-in played it.  :class:`ClockWatch` looks for it while the log still keeps that
  round (the current and the previous one).

Such a move is a turn the person lost to time the service could not take their move in: the invariant
:func:`testkit.chaos_invariants.turns_lost_to_the_clock` counts them.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import orjson
import requests

from .chaos_invariants import ClockedMove

VIEW_PATH = re.compile(r"^/v1/games/([^/]+)$")
MOVE_PATH = re.compile(r"^/v1/games/([^/]+)/(bids|plays|blind|passes)$")
STALE = (409, 412)  # answers to a move the game moved on without


@dataclass
class _Seen:
    """A seat's last view: its version, whether its clock ran then and until when, and the server's time."""

    version: int
    seat: int
    deadline_ms: int | None
    server_ms: int
    received_ms: float  # this machine's clock when it arrived (ms)


class MoveClocks:
    """The clients' side: the views each token read and the moves each sent (thread-safe)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self._seen: dict[str, _Seen] = {}  # Authorization header -> the last view it read
        self.moves: dict[tuple[str, int, int], ClockedMove] = {}  # (game, seat, If-Match version) -> first send

    def before(self, method: str, url: str, headers: dict[str, Any]) -> tuple[str, int, int] | None:
        """A request about to be sent: a move's first attempt is noted; the key its answer goes to."""
        match = MOVE_PATH.match(urlsplit(url).path) if method == "POST" else None
        token, tag = headers.get("Authorization"), headers.get("If-Match")
        if match is None or token is None or tag is None:
            return None
        now_ms = time.time() * 1000
        with self.lock:
            seen = self._seen.get(token)
            if seen is None or str(seen.version) != str(tag).strip('"'):
                return None
            key = (match.group(1), seen.seat, seen.version)
            if key not in self.moves:
                sent = round(seen.server_ms + (now_ms - seen.received_ms))
                self.moves[key] = ClockedMove(key[0], seen.seat, seen.version, seen.deadline_ms, sent)
        return key

    def after(self, key: tuple[str, int, int] | None, status: int | None) -> None:
        """A move's attempt was answered ``status`` (None: no answer)."""
        if key is not None:
            with self.lock:
                self.moves[key].status = status

    def answered(self, response: requests.Response) -> None:
        """A view read with a seat's token: what its clock said."""
        request = response.request
        token = request.headers.get("Authorization")
        if request.method != "GET" or response.status_code != 200 or token is None:
            return
        if not VIEW_PATH.match(urlsplit(request.url or "").path):
            return
        view = orjson.loads(response.content)
        clock, you = view.get("clock"), view.get("you")
        if you is None or "server_time_ms" not in view:
            return
        deadline = clock["deadline_ms"] if clock and clock.get("seat") == you else None
        seen = _Seen(view["version"], you, deadline, view["server_time_ms"], time.time() * 1000)
        with self.lock:
            self._seen[token] = seen

    def sent_in_time_and_refused(self) -> list[ClockedMove]:
        """Moves sent before their deadline and answered 409 or 412: whether the clock took them is the store's."""
        with self.lock:
            return [m for m in self.moves.values() if m.in_time and m.status in STALE and m.timed_out is None]


class ClockWatch(threading.Thread):
    """Settles :meth:`MoveClocks.sent_in_time_and_refused` against each game's kept log every ``interval`` s:
    ``timed_out`` True when the log holds the seat's ``turn_timed_out`` at that deadline, False when it holds
    the round of that version and no such entry.  ``log(game_id)`` reads a game's kept log."""

    def __init__(self, clocks: MoveClocks, log: Callable[[str], list[dict[str, Any]]], interval: float = 1.0) -> None:
        super().__init__(name="chaos-clock-watch", daemon=True)
        self.clocks, self.log, self.interval = clocks, log, interval
        self._done = threading.Event()

    def run(self) -> None:
        while not self._done.wait(self.interval):
            self.settle()

    def settle(self) -> None:
        for move in self.clocks.sent_in_time_and_refused():
            try:
                entries = self.log(move.game_id)
            except Exception:
                continue  # a master failing over: the next look
            timed_out = [
                e
                for e in entries
                if e["type"] == "turn_timed_out"
                and e["data"].get("seat") == move.seat
                and e["data"].get("deadline_ms") == move.deadline_ms
            ]
            if timed_out:
                move.timed_out = True
            elif entries and entries[0]["version"] <= move.version:  # the log still keeps that turn: not the clock
                move.timed_out = False

    def finish(self) -> None:
        self._done.set()
        self.join(timeout=30)
        self.settle()
