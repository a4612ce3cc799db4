"""docs/operations.md, "Scale workers per level", run as written: a worker started on one level's two queues
(``worker-start``) is listed among that level's workers (``level-look``), makes a decision sent on the level's
queue, and leaves by a warm shutdown (``worker-drain``), on a broker Redis of the test's own."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from celery import Celery

from services.engine import make_rules, new_game, view
from services.engine.state import turn
from testkit import runbook
from testkit.processes import ROOT, free_port, start_redis, stop

pytestmark = pytest.mark.integration

BLOCKS = ("worker-start", "level-look", "worker-drain")
LEVEL = "easy"


@pytest.fixture
def settings() -> Iterator[dict[str, str]]:
    """The blocks' settings: a broker of the test's own, a worker's name and its files' directory; the worker is
    killed at the end if a failed step left it running."""
    with tempfile.TemporaryDirectory(prefix="spades-workers-") as run_dir:
        port = free_port()
        broker = start_redis(port, run_dir, appendonly=False)
        url = f"redis://127.0.0.1:{port}/0"
        env = {"LEVEL": LEVEL, "WORKER": f"ai-{LEVEL}-1", "CONCURRENCY": "1", "BROKER_URL": url, "RUN_DIR": run_dir}
        env["PATH"] = f"{Path(sys.executable).parent}:{os.environ['PATH']}"  # the checkout's celery and python
        try:
            yield env
        finally:
            pid_file = Path(run_dir, f"{env['WORKER']}.pid")
            if pid_file.exists():  # a detached worker leads its own session: its pool goes with it
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(int(pid_file.read_text()), signal.SIGKILL)
            stop(broker)


def test_a_worker_added_for_one_level_is_seen_decides_for_it_and_drains(settings):
    runbook.run(["worker-start"], settings, ROOT, server_user=False)
    looked = runbook.run(["level-look"], settings, ROOT, server_user=False).stdout.splitlines()
    assert looked[:2] == ["0", "0"], "nothing waits on the level's two lists"
    assert len(looked) == 3 and looked[2].startswith(f"{settings['WORKER']}@"), "the one worker reading the level"

    client = Celery("api_side", broker=settings["BROKER_URL"], backend=settings["BROKER_URL"], set_as_current=False)
    state = new_game(make_rules("partnership"), seed=4)
    seat = turn(state)
    asked = {"view": view(state, seat), "level": LEVEL, "game_id": "g", "version": 1, "seat": seat, "seed": 2}
    answer = client.send_task("ai.decide", kwargs={**asked, "request_id": "drill-1"}, queue=f"ai.{LEVEL}").get(
        timeout=60
    )
    assert answer["level"] == LEVEL and answer["move"]["bid"] in asked["view"]["legal"]
    client.close()

    runbook.run(["worker-drain"], settings, ROOT, server_user=False)
    log = Path(settings["RUN_DIR"], f"{settings['WORKER']}.log").read_text()
    assert "request_id=drill-1" in log, "the level's decision was this worker's"
    assert not Path(settings["RUN_DIR"], f"{settings['WORKER']}.pid").exists(), "gone, its pid file with it"
