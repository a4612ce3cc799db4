"""The run command's launcher: where it tells gunicorn to listen (``--port``, else ``API_BIND``), and, on a
machine with no Redis, the embedded Valkey server, an AI worker and gunicorn it starts, which play a game."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from services import stack
from services.computers import WORKER_QUEUES
from testkit.processes import free_port

ROOT = Path(__file__).resolve().parents[1]


class ExitedProcess:
    """A child that has already exited: the launcher's loop stops at once."""

    def __init__(self, command: list[str], env: dict[str, str], **_: object) -> None:
        self.command, self.env = command, env

    def poll(self) -> int:
        return 0

    def wait(self, timeout: float | None = None) -> int:
        return 0


def launched_env(monkeypatch, argv: list[str], **environ: str) -> dict[str, str]:
    """The environment the launcher gives gunicorn, for ``argv`` and ``environ`` (no process started)."""
    started: list[ExitedProcess] = []

    def popen(command: list[str], **options: object) -> ExitedProcess:
        started.append(ExitedProcess(command, **options))
        return started[-1]

    monkeypatch.setattr(stack.subprocess, "Popen", popen)
    monkeypatch.setattr(stack.signal, "signal", lambda *_: None)  # the test process keeps its own handlers
    monkeypatch.setattr(sys, "argv", ["stack", *argv])
    monkeypatch.delenv("API_BIND", raising=False)
    for name, value in {"REDIS_URL": "redis://127.0.0.1:1/0", **environ}.items():
        monkeypatch.setenv(name, value)
    assert stack.main() == 1  # every child "exited": the launcher stops
    (api,) = [p for p in started if "gunicorn" in p.command]
    return api.env


def test_the_api_listens_where_api_bind_says(monkeypatch):
    assert launched_env(monkeypatch, [], API_BIND="127.0.0.1:8340")["API_BIND"] == "127.0.0.1:8340"


def test_port_wins_over_api_bind_and_the_default_is_8000(monkeypatch):
    assert launched_env(monkeypatch, ["--port", "8341"], API_BIND="127.0.0.1:8340")["API_BIND"] == "127.0.0.1:8341"
    assert launched_env(monkeypatch, [])["API_BIND"] == "127.0.0.1:8000"


@pytest.mark.integration  # real Redis / gunicorn / Celery processes
def test_stack_without_redis_runs_an_embedded_valkey_and_plays_a_game(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND")}
    env["LOCAL_REDIS_URL"] = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    env["COMPUTER_GAME_PACE_SECONDS"] = "0"  # the computers' game at full speed: the test is not about its pace
    env["API_BIND"] = f"127.0.0.1:{port}"  # the README's setting, as ./scripts/run.sh passes it on
    log = tmp_path / "stack.log"
    with log.open("w") as out:
        stack = subprocess.Popen(
            [sys.executable, "-m", "services.stack", "--api-workers", "1", "--ai-concurrency", "1"],
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
