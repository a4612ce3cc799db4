"""What the chaos drill's clients saw: every answer, by status and time, and the moves acknowledged.

Each session of the load (:mod:`testkit.chaos_load`) carries a response hook: every answer is counted by
status, and kept as an :class:`Answer` (its time, status, route and how long it took), each 5xx also as an error,
each 2xx to a move kept as an acknowledged move (game, seat, the answer's version, the body sent, its
``Idempotency-Key``), each 201 to a create as a game started; a request no answer came back to (a killed API
process) is counted too, with its time.  The players say which seats they are at
(:meth:`Observations.playing`), so a game waiting on a person can be told from one whose player has quit.

Optionally: ``route`` rewrites each request's URL before it is sent (a drill whose servers come and go sends
every request through it, as a Service does: :class:`testkit.release.rolling.Endpoints`), ``moves`` notes each
move's timing against its deadline (:class:`testkit.chaos_clocks.MoveClocks`), and each of ``watchers`` is handed
every answer.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import orjson
import requests

from .chaos_invariants import Ack, ServerError

if TYPE_CHECKING:
    from .chaos_clocks import MoveClocks


@dataclass(frozen=True, slots=True)
class Answer:
    """One answer a client got: when (the run's clock), its status, its route and the seconds it took."""

    at: float
    status: int
    route: str
    seconds: float


MOVE_PATH = re.compile(r"^/v1/games/([^/]+)/(bids|plays|blind|passes)$")
GAME_PATH = re.compile(r"^/v1/games/[^/]+")


class Observations:
    """What the clients saw, thread-safe; times are seconds on ``clock``."""

    def __init__(
        self,
        clock: Callable[[], float],
        route: Callable[[str], str] | None = None,
        moves: MoveClocks | None = None,
        watchers: Sequence[Callable[[requests.Response], None]] = (),
    ) -> None:
        self.clock = clock
        self.route, self.moves = route, moves
        self.watchers = [*watchers, *([moves.answered] if moves is not None else [])]
        self.lock = threading.Lock()
        self.acks: list[Ack] = []
        self.errors: list[ServerError] = []
        self.statuses: Counter = Counter()
        self.connection_failures = 0
        self.answers: list[Answer] = []
        self.unanswered: list[float] = []  # when each request without an answer failed
        self.games: dict[str, dict[str, Any]] = {}  # game id -> {"kind", "seats", "at"}
        self.left: Counter = Counter()  # why players left games early
        self._playing: dict[tuple[str, int], str] = {}  # (game, seat) -> "playing" | "stopped" | "quit"

    def session(self, kind: str) -> requests.Session:
        """A session whose every answer is recorded; ``kind`` names the load it serves."""
        session = _CountingSession(self)
        session.hooks["response"].append(lambda response, *args, **kwargs: self._answer(response, kind))
        return session

    def _answer(self, response: requests.Response, kind: str) -> None:
        at, request = self.clock(), response.request
        path = urlsplit(request.url or "").path
        method, status = request.method or "", response.status_code
        route = f"{method} {GAME_PATH.sub('/v1/games/{id}', path)}"
        ack = game = None
        if 200 <= status < 300 and method == "POST":
            if match := MOVE_PATH.match(path):
                view, body = orjson.loads(response.content), orjson.loads(request.body or b"{}")
                key = request.headers.get("Idempotency-Key")
                ack = Ack(match.group(1), view["you"], view["version"], body, key, at)
            elif path == "/v1/games":
                created = orjson.loads(response.content)
                game = (created["game_id"], {"kind": kind, "seats": [s["type"] for s in created["seats"]], "at": at})
        with self.lock:
            self.statuses[status] += 1
            self.answers.append(Answer(at, status, route, response.elapsed.total_seconds()))
            if status >= 500:
                self.errors.append(ServerError(at, status, route, _problem_code(response)))
            if ack is not None:
                self.acks.append(ack)
            if game is not None:
                self.games[game[0]] = game[1]
        for watcher in self.watchers:
            watcher(response)

    @contextmanager
    def playing(self, game_id: str, seats: list[int]) -> Iterator[None]:
        """The seats' player is at the table while inside: it leaves as ``stopped`` (the game ended, or the run
        stopped it) or, on an exception (it gave up), as ``quit``."""
        self._mark(game_id, seats, "playing")
        try:
            yield
        except BaseException:
            self._mark(game_id, seats, "quit")
            raise
        self._mark(game_id, seats, "stopped")

    def _mark(self, game_id: str, seats: list[int], how: str) -> None:
        with self.lock:
            for seat in seats:
                self._playing[(game_id, seat)] = how

    def player_active(self, game_id: str, seat: int) -> bool:
        """A person's seat has its player: playing, or stopped by the run's end (not quit)."""
        with self.lock:
            return self._playing.get((game_id, seat), "quit") != "quit"

    def game_ids(self) -> list[str]:
        with self.lock:
            return list(self.games)


class _CountingSession(requests.Session):
    """A session that counts the requests no answer came back to (a killed API process)."""

    def __init__(self, observations: Observations) -> None:
        super().__init__()
        self.observations = observations

    def request(self, method: str, url: str, *args: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        observations = self.observations
        if observations.route is not None:
            url = observations.route(url)
        move = None
        if observations.moves is not None:
            move = observations.moves.before(method, url, {**self.headers, **(kwargs.get("headers") or {})})
        try:
            response = super().request(method, url, *args, **kwargs)
        except requests.RequestException:
            at = observations.clock()
            with observations.lock:
                observations.connection_failures += 1
                observations.unanswered.append(at)
            if observations.moves is not None:
                observations.moves.after(move, None)
            raise
        if observations.moves is not None:
            observations.moves.after(move, response.status_code)
        return response


def _problem_code(response: requests.Response) -> str:
    """A 5xx answer's problem code (``503 not_replicated``, ``503 unavailable``), if it carried one."""
    try:
        body = orjson.loads(response.content)
    except (orjson.JSONDecodeError, RuntimeError):
        return ""
    return str(body.get("code", "")) if isinstance(body, dict) else ""
