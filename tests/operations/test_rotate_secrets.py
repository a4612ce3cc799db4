"""docs/operations.md, "Rotate secrets", run as written on throwaway servers: between the two steps of each
rotation a client with the old secret and one with the new are both served, after them only the new; a replica
signs in to its master with the new Redis password; a table made by the new PostgreSQL login is the owner's."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator

import psycopg
import pytest
import redis

from testkit import runbook
from testkit.postgres import PrivatePostgres, private_postgres
from testkit.processes import free_port, redis_server_binary, stop
from tests.api.helpers import wait_until

pytestmark = pytest.mark.integration

BLOCKS = ("redis-password-add", "redis-password-drop", "postgres-login-add", "postgres-login-drop")
OLD, NEW = "old-secret-0123", "new-secret-4567"


@pytest.fixture
def redis_pair() -> Iterator[tuple[int, int]]:
    """A Redis with a password and a replica of it, as the deployments run them (``--requirepass``,
    ``--masterauth``): their ports."""
    master, replica = free_port(), free_port()
    with tempfile.TemporaryDirectory(prefix="spades-rotate-redis-") as data:
        processes = []
        for port, more in ((master, []), (replica, ["--replicaof", "127.0.0.1", str(master)])):
            command = [redis_server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--dir", data, "--save", ""]
            command += ["--dbfilename", f"{port}.rdb", "--requirepass", OLD, "--masterauth", OLD, *more]
            processes.append(subprocess.Popen(command, stdout=subprocess.DEVNULL))
        try:
            wait_until(lambda: linked(replica, OLD), "the replica linked to its master", 20)
            yield master, replica
        finally:
            for process in processes:
                stop(process)


def client(port: int, password: str) -> redis.Redis:
    return redis.Redis(port=port, password=password, socket_timeout=2, socket_connect_timeout=2)


def linked(replica: int, password: str) -> bool:
    """The replica on ``replica`` says its link to its master is up."""
    try:
        return client(replica, password).info("replication")["master_link_status"] == "up"
    except redis.ConnectionError:
        return False


def served(port: int, password: str) -> bool:
    """A new connection signed in with ``password`` is served."""
    try:
        return bool(client(port, password).ping())
    except redis.AuthenticationError:
        return False


def test_a_redis_password_rotates_with_both_taken_between_the_steps(redis_pair):
    master, replica = redis_pair
    env = {"REDIS_NODES": f"127.0.0.1:{master} 127.0.0.1:{replica}", "OLD_PASSWORD": OLD, "NEW_PASSWORD": NEW}
    with runbook.work_dir("spades-rotate-") as work:
        runbook.run(["redis-password-add"], env, work)
        assert all(served(port, password) for port in redis_pair for password in (OLD, NEW))
        held = client(master, OLD)
        held.set("game", "on")  # a process of the old setting, still running
        runbook.run(["redis-password-drop"], env, work)
    assert [served(port, OLD) for port in redis_pair] == [False, False]
    assert [served(port, NEW) for port in redis_pair] == [True, True]
    assert held.get("game") == b"on", "a connection signed in with the old password stays until its process ends"

    before = syncs(master)
    client(master, NEW).client_kill_filter(_type="replica")  # the replica must sign in again: with the new one
    wait_until(lambda: syncs(master) > before and linked(replica, NEW), "the replica back with the new password", 20)


def syncs(master: int) -> int:
    """How many times a replica has synchronised with the master (a partial or a full sync each time it links)."""
    stats = client(master, NEW).info("stats")
    return int(stats["sync_full"]) + int(stats["sync_partial_ok"])


def with_password_sign_in(server: PrivatePostgres) -> None:
    """Password sign-in over TCP for every role but the superuser (the throwaway server trusts everyone)."""
    hba = server.data_dir / "pg_hba.conf"
    hba.write_text(
        "local all all trust\nhost all postgres 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 scram-sha-256\n"
    )
    with psycopg.connect(server.url, autocommit=True) as connection:
        connection.execute("SELECT pg_reload_conf()")


def login_url(server: PrivatePostgres, role: str, password: str) -> str:
    return f"postgresql://{role}:{password}@127.0.0.1:{server.port}/spades"


def signs_in(url: str) -> bool:
    try:
        with psycopg.connect(url, connect_timeout=3):
            return True
    except psycopg.OperationalError:
        return False


@pytest.fixture
def records_server() -> Iterator[PrivatePostgres]:
    """A PostgreSQL with the records database as set up: owned by ``spades``, which signs in with a password."""
    with private_postgres(free_port()) as server:
        with psycopg.connect(server.url, autocommit=True) as connection:
            connection.execute(f"CREATE ROLE spades LOGIN PASSWORD '{OLD}'")
            connection.execute("CREATE DATABASE spades OWNER spades")
        with_password_sign_in(server)
        with psycopg.connect(login_url(server, "spades", OLD), autocommit=True) as connection:
            connection.execute("CREATE TABLE game_records (id text PRIMARY KEY)")
        yield server


def test_the_records_password_rotates_through_a_second_login_with_both_taken_between_the_steps(records_server):
    server = records_server
    old, new = login_url(server, "spades", OLD), login_url(server, "spades_b", NEW)
    env = {"SUPERUSER_URL": server.url, "OWNER_ROLE": "spades", "OLD_LOGIN": "spades", "NEW_LOGIN": "spades_b"}
    env["NEW_DB_PASSWORD"] = NEW
    with runbook.work_dir("spades-rotate-") as work:
        runbook.run(["postgres-login-add"], env, work)
        with psycopg.connect(old, autocommit=True) as by_old, psycopg.connect(new, autocommit=True) as by_new:
            by_old.execute("INSERT INTO game_records VALUES ('written by the old release')")
            by_new.execute("INSERT INTO game_records VALUES ('written by the new release')")
            assert by_new.execute("SELECT session_user, current_user").fetchone() == ("spades_b", "spades")
            by_new.execute("CREATE TABLE ratings (player text)")  # a migration of the new release's processes
            with pytest.raises(RuntimeError, match="postgres-login-drop failed"):
                runbook.run(["postgres-login-drop"], env, work)  # an old process still signed in: not yet
        runbook.run(["postgres-login-drop"], env, work)
    assert (signs_in(old), signs_in(new)) == (False, True)
    with psycopg.connect(new) as connection:
        owners = connection.execute("SELECT tablename, tableowner FROM pg_tables WHERE schemaname = 'public'")
        assert sorted(owners.fetchall()) == [("game_records", "spades"), ("ratings", "spades")]
        assert connection.execute("SELECT count(*) FROM game_records").fetchone() == (2,)
