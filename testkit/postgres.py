"""PostgreSQL for tests and benchmark commands: the server the test command ensures, a throwaway database
on it, and private servers a test may stop and start (Debian's ``postgresql`` binaries).

A private server runs as the ``postgres`` user when the caller is root (``initdb`` and ``postgres``
refuse root), listens on loopback only, trusts local connections and keeps its data in a directory the
caller chooses.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SHARED_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def postgres_bin() -> Path:
    """The newest installed PostgreSQL's binaries (Debian: /usr/lib/postgresql/<major>/bin)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))
    if not found:
        raise RuntimeError("PostgreSQL is not installed (Debian's postgresql package; scripts/ensure_postgres.sh)")
    return found[-1]


def as_server_user(cmd: list[str]) -> list[str]:
    """``cmd`` run as the ``postgres`` user when the caller is root (the server's files are that user's)."""
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


def answers(url: str, timeout: float = 2.0) -> bool:
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=max(1, int(timeout))):
            return True
    except psycopg.OperationalError:
        return False


class PrivatePostgres:
    """A PostgreSQL server of the caller's own on ``port``, its cluster in ``data_dir``."""

    def __init__(self, port: int, data_dir: str | Path) -> None:
        self.port = port
        self.data_dir = Path(data_dir)
        self.url = f"postgresql://postgres@127.0.0.1:{port}/postgres"

    def init(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.data_dir, "postgres", "postgres")
        cmd = [str(postgres_bin() / "initdb"), "-D", str(self.data_dir), "-U", "postgres", "--auth=trust", "-E", "UTF8"]
        subprocess.run(as_server_user(cmd), check=True, stdout=subprocess.DEVNULL)

    def _ctl(self, *args: str) -> None:
        cmd = [str(postgres_bin() / "pg_ctl"), "-D", str(self.data_dir), "-w", "-t", "60", *args]
        subprocess.run(as_server_user(cmd), check=True, stdout=subprocess.DEVNULL)

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.data_dir} -c fsync=off"
        self._ctl("-o", options, "-l", str(self.data_dir / "server.log"), "start")
        self._wait_until_it_answers()

    def stop(self) -> None:
        self._ctl("-m", "fast", "stop")

    def restart(self) -> None:
        """Stopped and started with the options it was started with (settings only a start reads:
        ``archive_mode``)."""
        self._ctl("-m", "fast", "-l", str(self.data_dir / "server.log"), "restart")
        self._wait_until_it_answers()

    def _wait_until_it_answers(self) -> None:
        deadline = time.monotonic() + 30
        while not answers(self.url):
            if time.monotonic() > deadline:
                raise RuntimeError(f"postgres on port {self.port} did not start")
            time.sleep(0.1)


@contextmanager
def private_postgres(port: int) -> Iterator[PrivatePostgres]:
    """A private server, initialised and started in a new directory under the system's temp directory
    (one the ``postgres`` user can reach: a test's own ``tmp_path`` is private to root); stopped and
    removed at the end."""
    parent = Path(tempfile.mkdtemp(prefix="spades-postgres-"))
    parent.chmod(0o755)
    server = PrivatePostgres(port, parent / "data")
    try:
        server.init()
        server.start()
        yield server
    finally:
        if (server.data_dir / "postmaster.pid").exists():
            server.stop()
        shutil.rmtree(parent, ignore_errors=True)


def database_url(server_url: str, name: str) -> str:
    return server_url.rsplit("/", 1)[0] + "/" + name


@contextmanager
def throwaway_database(server_url: str = SHARED_URL, prefix: str = "spades_test") -> Iterator[str]:
    """A new database on ``server_url``'s server, dropped at the end: its URL."""
    import psycopg

    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield database_url(server_url, name)
    finally:
        with psycopg.connect(server_url, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
