"""Paced computer-only games: each computer move sent ``COMPUTER_GAME_PACE_SECONDS`` after the last.

Nobody waits on a computer-only game, yet at full speed a hard one makes a hundred moves a second, and
each costs the API a commit and the workers a decision: three of them took half a core of worker time
and half a core of API time from the people's games on two cores (docs/benchmarks.md, "Fair share").
Paced, a game makes at most one move per pace (a watchable speed too), so what a creator's
``MAX_COMPUTER_GAMES`` can take is bounded.

The wait is here, in the API process that committed the move, not a Celery countdown: a worker takes a
countdown task off the broker's list at once and holds it in memory until it is due, so the bulk lists
(what KEDA scales on and ``spades_ai_queue_depth`` shows) would read empty while workers hold the
backlog.  A turn held here is already in the timers (registered before its commit, due by the
deadline), so if the process dies holding it the deadline sweep sends it.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import os
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


class Pacer:
    """Runs each call handed to :meth:`later` ``seconds`` after it was handed over, in order, on a daemon
    thread of its own (started on first use, in the process that uses it: gunicorn forks after import)."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic, thread: bool = True) -> None:
        self.seconds = seconds
        self.clock = clock
        self.thread = thread  # False: the caller runs :meth:`run_due` (tests)
        self._heap: list[tuple[float, int, Callable[[], None]]] = []
        self._order = itertools.count()
        self._changed = threading.Condition()
        self._pid: int | None = None

    def later(self, call: Callable[[], None]) -> None:
        """Run ``call`` after the pace (at once, in the caller, with a pace of 0)."""
        if self.seconds <= 0:
            call()
            return
        with self._changed:
            heapq.heappush(self._heap, (self.clock() + self.seconds, next(self._order), call))
            self._changed.notify()
        if self.thread and self._pid != os.getpid():
            self._pid = os.getpid()
            threading.Thread(target=self._run, name="ai-pacer", daemon=True).start()

    def held(self) -> int:
        with self._changed:
            return len(self._heap)

    def run_due(self) -> int:
        """Run the calls that are due; how many ran.  A call that raises is logged, not propagated."""
        due = []
        with self._changed:
            now = self.clock()
            while self._heap and self._heap[0][0] <= now:
                due.append(heapq.heappop(self._heap)[2])
        for call in due:
            try:
                call()
            except Exception:
                log.exception("a paced AI turn failed; the deadline sweep sends it")
        return len(due)

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._heap:
                    self._changed.wait()
                wait = self._heap[0][0] - self.clock()
                if wait > 0:
                    self._changed.wait(wait)
                    continue
            self.run_due()
