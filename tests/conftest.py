"""Shared fixtures: real Redis (database 1 for API tests), real gunicorn over HTTP,
and a requests session that checks every response against openapi.yaml.

Under pytest-xdist (scripts/test.sh runs the suite on every core) each worker process starts a Redis
server of its own, its own Redis Cluster ports and its own records directory (``DATA_DIR``: the embedded
SQLite the session's servers keep players and records in), so each worker's session sees the databases a
one-process run sees: the test modules keep their fixed database numbers and flushes."""

from __future__ import annotations

import logging
import os
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
import redis

from testkit.http_clients import EventFollower
from testkit.postgres import throwaway_database
from testkit.processes import free_port, gunicorn, running, start_redis, start_worker, stop
from testkit.redis_cluster import LoopbackCluster, free_base_port, loopback_cluster

# apps and servers the tests start keep their embedded records database (SQLite) out of the checkout
os.environ.setdefault("DATA_DIR", tempfile.mkdtemp(prefix="spades-test-data-"))
REDIS_HOST = os.environ.get("TEST_REDIS_HOST", "127.0.0.1")
REDIS_PORT = int(os.environ.get("TEST_REDIS_PORT", "6379"))
#: "gw0", "gw1", … in a pytest-xdist worker; None in a one-process run
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
API_TEST_DB = 1
#: An in-process app with no store behind it (nothing listens on port 1): pages, listeners and errors
#: that need none.  No lobby sweeper: its thread would retry the missing store for the rest of the session.
NO_STORE_CONFIG = {
    "REDIS_URL": "redis://127.0.0.1:1/0",
    "AI_ENABLED": False,
    "RATE_LIMIT_ENABLED": False,
    "LOBBY_SWEEPER_ENABLED": False,
}


def pytest_configure(config: pytest.Config) -> None:
    """An xdist worker's own Redis (before the test modules import REDIS_PORT), stopped at unconfigure, and its
    own ``DATA_DIR``: the controller's, which the workers inherit, would put both workers' servers on one SQLite."""
    global REDIS_HOST, REDIS_PORT
    if XDIST_WORKER:
        os.environ["DATA_DIR"] = tempfile.mkdtemp(prefix=f"spades-{XDIST_WORKER}-data-")
        port = free_port()
        config.worker_redis = start_redis(port, tempfile.mkdtemp(prefix=f"spades-{XDIST_WORKER}-redis-"), False)
        REDIS_HOST, REDIS_PORT = "127.0.0.1", port
        os.environ.update(TEST_REDIS_HOST=REDIS_HOST, TEST_REDIS_PORT=str(REDIS_PORT))


def pytest_unconfigure(config: pytest.Config) -> None:
    if server := getattr(config, "worker_redis", None):
        # the tests are over: the in-process apps' daemon threads (lobby sweepers, records writers) would log
        # the stopped server, to a closed stream, in the process's last moments
        logging.disable(logging.CRITICAL)
        stop(server)


def redis_url(db: int) -> str:
    return f"redis://{REDIS_HOST}:{REDIS_PORT}/{db}"


@contextmanager
def run_gunicorn(
    env: dict[str, str] | None = None,
    workers: int = 1,
    app: str = "services.api.wsgi:app",
    threads: int = 8,
    redis: str | None = None,
) -> Iterator[str]:
    """Start gunicorn (gunicorn.conf.py) on a free loopback port; yield its base URL.

    One worker unless a test asks for more: each worker imports the app (about 2 s of CPU), and the tests start
    many servers of their own.  :func:`api_server`, shared by the session, runs two as deployed, as do the tests of
    what crosses processes (they ask for ``workers=2``, or start two servers)."""
    # tests/api/http/test_rate_limits.py turns limits on; computer-only games play unpaced (the pace:
    # tests/api/ai_seats/test_pauses.py, and test_fair_share.py's restart, which runs paced)
    # RATED_MIN_WIN_SCORE: the tests' short games (to 50) can be rated, so rated play is tested in seconds
    full_env = {
        "RATE_LIMIT_ENABLED": "0",
        "COMPUTER_GAME_PACE_SECONDS": "0",
        "RATED_MIN_WIN_SCORE": "50",
        **(env or {}),
    }
    # Stopped at once (SIGQUIT) when done: no test checks a server after it, and a graceful stop would wait
    # for the connections still open (keep-alives) to close.
    url = redis or redis_url(API_TEST_DB)
    with gunicorn(url, workers=workers, threads=threads, env=full_env, app=app, stop_signal=signal.SIGQUIT) as base:
        yield base


@pytest.fixture(autouse=True)
def no_event_follower_outlives_its_test() -> Iterator[None]:
    """Each test finishes or closes its event followers: one left running would poll a stopped server for
    the rest of the session, beside every later test."""
    yield
    leaked = [thread for thread in threading.enumerate() if isinstance(thread, EventFollower) and thread.is_alive()]
    for follower in leaked:
        follower.close()
    assert not leaked, f"event followers left running: {[follower.name for follower in leaked]}"


#: the daemon threads an in-process app starts, each running a method of an object with ``stop()``
APP_BACKGROUND_THREADS = {"lobby-sweeper", "records-writer", "ai-sweeper"}


@pytest.fixture(autouse=True)
def in_process_apps_stop_their_background_threads() -> Iterator[None]:
    """The apps a test creates with ``create_app`` start daemon threads (the lobby sweeper polls its store four
    times a second) that nothing stops: stopped at the test's end, so they do not pile up for the session."""
    before = set(threading.enumerate())
    yield
    for thread in set(threading.enumerate()) - before:
        owner = getattr(getattr(thread, "_target", None), "__self__", None)  # Thread keeps its target while it runs
        if thread.name in APP_BACKGROUND_THREADS and owner is not None:
            owner.stop()


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
    """One real gunicorn (2 workers, as deployed) against Redis db 1, shared by the session."""
    with run_gunicorn(workers=2) as base:
        yield base


@pytest.fixture(scope="session")
def ai_worker(redis_db1: redis.Redis) -> Iterator[None]:
    """A real Celery AI worker process (all three queues) on the API tests' Redis database."""
    process = start_worker(redis_url(API_TEST_DB), concurrency=1)
    with running(process):
        yield


@pytest.fixture(scope="session")
def redis_cluster() -> Iterator[LoopbackCluster]:
    """A real 3-master, 3-replica Redis Cluster on loopback (TEST_CLUSTER_BASE_PORT, default 7101 to 7106; free
    ports found at random in an xdist worker)."""
    with loopback_cluster(free_base_port(6) if XDIST_WORKER else None) as cluster:
        yield cluster


def cluster_env(cluster: LoopbackCluster, **extra: str) -> dict[str, str]:
    """Settings of an API in cluster mode: games on the cluster, acknowledged once a replica has them;
    Celery on the tests' plain Redis (database 1, so the session's ``ai_worker`` serves it); REDIS_URL
    names a port nothing listens on, so anything still using it for games would fail."""
    defaults = {"REDIS_WAIT_REPLICAS": "1", "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"}
    return cluster.api_env(redis_url(API_TEST_DB), **{**defaults, **extra})


@pytest.fixture(scope="session")
def cluster_api(redis_cluster: LoopbackCluster, redis_db1: redis.Redis) -> Iterator[str]:
    """One real gunicorn (2 workers) with its games on the session's Redis Cluster. It runs no records writer:
    the records outbox is shared through the cluster, and the records tests' own servers must be the ones that
    claim their games' entries (a writer here would record them in this server's database instead)."""
    with run_gunicorn(cluster_env(redis_cluster, RECORDS_WRITER_ENABLED="0")) as base:
        yield base


@pytest.fixture
def private_redis_url(tmp_path) -> Iterator[str]:
    """A Redis server of the test's own on a free port: its queues, counters and holds start empty, and no
    Celery worker elsewhere serves it."""
    port = free_port()
    server = start_redis(port, str(tmp_path), appendonly=False)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(server)


@pytest.fixture(scope="session")
def postgres_records_url() -> Iterator[str]:
    """A throwaway database for the session's records on the PostgreSQL the test command ensures
    (TEST_POSTGRES_URL, default postgres@127.0.0.1:5432; scripts/ensure_postgres.sh), dropped at the end."""
    with throwaway_database() as url:
        yield url
