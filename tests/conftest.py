"""Shared fixtures: real Redis (database 1 for API tests), real gunicorn over HTTP,
and a requests session that checks every response against openapi.yaml."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis
import requests

ROOT = Path(__file__).resolve().parents[1]
REDIS_HOST = os.environ.get("TEST_REDIS_HOST", "127.0.0.1")
REDIS_PORT = int(os.environ.get("TEST_REDIS_PORT", "6379"))
API_TEST_DB = 1


def redis_url(db: int) -> str:
    return f"redis://{REDIS_HOST}:{REDIS_PORT}/{db}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_ready(url: str, process: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}")
        try:
            if requests.get(url, timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} not ready after {timeout} s")


@contextmanager
def run_gunicorn(
    env: dict[str, str] | None = None,
    workers: int = 2,
    app: str = "services.api.wsgi:app",
    ready_path: str = "/v1/rules",
    threads: int = 8,
) -> Iterator[str]:
    """Start gunicorn (gunicorn.conf.py) on a free loopback port; yield its base URL."""
    port = free_port()
    full_env = {
        **os.environ,
        "REDIS_URL": redis_url(API_TEST_DB),
        "API_BIND": f"127.0.0.1:{port}",
        "API_WORKERS": str(workers),
        "API_THREADS": str(threads),
        "API_LOG_LEVEL": "warning",
        "LOG_LEVEL": "WARNING",
        "RATE_LIMIT_ENABLED": "0",  # tests send far more than a player would; tests/api/test_protection.py turns it on
        **(env or {}),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py"), app],
        cwd=ROOT,
        env=full_env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(base + ready_path, process)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def gunicorn_factory() -> Iterator[Callable[..., str]]:
    """Start extra gunicorn servers with their own env; all stopped at teardown."""
    stack = []

    def start(env: dict[str, str] | None = None, **kwargs) -> str:
        manager = run_gunicorn(env, **kwargs)
        stack.append(manager)
        return manager.__enter__()

    yield start
    for manager in reversed(stack):
        manager.__exit__(None, None, None)


@pytest.fixture(scope="session")
def redis_db1() -> Iterator[redis.Redis]:
    """A client for the API tests' Redis database (1), flushed at the start of the session."""
    client = redis.Redis.from_url(redis_url(API_TEST_DB))
    client.flushdb()
    yield client
    client.close()


@pytest.fixture(scope="session")
def api_server(redis_db1: redis.Redis) -> Iterator[str]:
    """One real gunicorn (2 workers, gthread) against Redis db 1, shared by the session."""
    with run_gunicorn() as base:
        yield base
