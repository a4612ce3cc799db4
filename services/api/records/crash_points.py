"""A test setting: named points where a process kills itself, to show that a crash there loses nothing and
applies nothing twice (``tests/api/ratings/test_exactly_once.py``).

``TEST_CRASH_AT`` (environment; empty in every deployment) names points, comma-separated, and
``TEST_CRASH_MARKS`` a directory: the first time any process of the test reaches a named point it leaves a
mark there and sends itself ``SIGKILL`` — no cleanup, no ``finally``, as a power cut or the OOM killer
would — and a later process passes the marked point.  The points:

- ``record_saved``: a finished game's record is written, its ratings not yet applied;
- ``ratings_written``: the ratings, stats and player games are written, not yet committed;
- ``ratings_applied``: they are committed, the game's outbox entry not yet gone.

With ``TEST_CRASH_AT`` unset (always, outside these tests) :func:`crash_point` is one set lookup.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

POINTS = frozenset(point for point in os.environ.get("TEST_CRASH_AT", "").split(",") if point)
MARKS = os.environ.get("TEST_CRASH_MARKS", "")


def crash_point(name: str) -> None:
    """Die here (SIGKILL) if the test setting names this point and no process died here yet."""
    if name not in POINTS or not MARKS:
        return
    try:
        Path(MARKS, name).touch(exist_ok=False)  # the first process here (only one can create the mark)
    except FileExistsError:
        return
    os.kill(os.getpid(), signal.SIGKILL)
