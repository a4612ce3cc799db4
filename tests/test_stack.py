"""The run command's launcher on a machine with no Redis: it starts the
embedded Valkey server, an AI worker and gunicorn, and they play a game."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from services.computers import WORKER_QUEUES
from testkit.processes import free_port

pytestmark = pytest.mark.integration  # real Redis / gunicorn / Celery processes

ROOT = Path(__file__).resolve().parents[1]


def test_stack_without_redis_runs_an_embedded_valkey_and_plays_a_game(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND")}
    env["LOCAL_REDIS_URL"] = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    env["COMPUTER_GAME_PACE_SECONDS"] = "0"  # the computers' game at full speed: the test is not about its pace
    log = tmp_path / "stack.log"
    with log.open("w") as out:
        stack = subprocess.Popen(
            [sys.executable, "-m", "services.stack", "--port", str(port), "--api-workers", "1", "--ai-concurrency", "1"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            assert stack.poll() is None, log.read_text()[-2000:]
            try:
                ready = requests.get(f"{base}/readyz", timeout=2)
                if ready.status_code == 200:
                    break
            except requests.RequestException:
                pass
            assert time.monotonic() < deadline, "the stack never became ready"
            time.sleep(0.2)
        assert "embedded Valkey" in log.read_text()
        workers = ready.json()["checks"]["workers"]
        assert set(workers) == set(WORKER_QUEUES) and all(workers.values()), "one worker serves every queue"
        seats = [{"type": "ai", "level": level} for level in ("easy", "standard", "pro", "basic")]
        body = {"rules": {"preset": "individual", "win_score": 10}, "seats": seats}  # over within a round or two
        game_id = requests.post(f"{base}/v1/games", json=body, timeout=10).json()["game_id"]
        while (view := requests.get(f"{base}/v1/games/{game_id}", timeout=10).json())["phase"] != "game_over":
            assert time.monotonic() < deadline + 60, "the AI game did not finish"
            time.sleep(0.2)
        assert view["winner"]
    finally:
        stack.send_signal(signal.SIGTERM)
        code = stack.wait(timeout=60)
    assert code == 0
