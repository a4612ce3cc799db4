"""An API of its own for the browser tests of people meeting (friends, quick match): its own Redis and records
database, quick match swept every 0.1 s, no computers (the tests never let a wait run out)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.conftest import run_gunicorn


@contextmanager
def own_people_api(folder: Path) -> Iterator[str]:
    """The API's base URL; its Redis and files live in ``folder`` and stop with it."""
    from testkit.processes import free_port, start_redis, stop

    port = free_port()
    server = start_redis(port, str(folder), appendonly=False)
    env = {"AI_ENABLED": "0", "DATA_DIR": str(folder), "MATCH_SWEEP_INTERVAL_SECONDS": "0.1"}
    try:
        with run_gunicorn(env, workers=1, redis=f"redis://127.0.0.1:{port}/0") as base:
            yield base
    finally:
        stop(server)
