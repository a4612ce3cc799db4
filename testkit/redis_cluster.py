"""A real Redis Cluster on loopback (3 masters, 1 or 2 replicas each): integration tests, benchmarks.

Each node is a ``redis-server --cluster-enabled yes`` with nothing kept on
disk but its ``nodes.conf`` and its log (in a temporary directory), joined by
``redis-cli --cluster create --cluster-replicas N``.  Readiness is polled, with
a bound: every live node says ``cluster_state:ok`` and every master has a replica
whose link is up (a node killed for good is left out).
:meth:`LoopbackCluster.kill`, :meth:`~LoopbackCluster.restart` and :meth:`~LoopbackCluster.cut_off`
(a replica left behind its master) are the failover tests' tools; :meth:`~LoopbackCluster.start_node` on a port of
:meth:`~LoopbackCluster.spare_ports`, :meth:`~LoopbackCluster.slot_owners` and
:meth:`~LoopbackCluster.keys_by_slot` the resharding drill's (the nodes join
and leave by the runbook's ``redis-cli --cluster`` commands: :mod:`testkit.cluster_reshard`).
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import redis
from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

from .processes import redis_server_binary, stop

NODE_TIMEOUT_MS = 1000  # how long a silent master stays master: the lower bound of a failover's duration
MASTERS = 3


def free_base_port(count: int, low: int = 20000, high: int = 40000) -> int:
    """A port from which ``count`` consecutive ports, and their cluster-bus ports (+10000), are free now."""
    rng = random.Random()
    for _ in range(200):
        base = rng.randrange(low, high - count)
        ports = [base + i for i in range(count)] + [base + 10000 + i for i in range(count)]
        if all(_free(port) for port in ports):
            return base
    raise RuntimeError(f"no {count} consecutive free ports found")


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def benchmark_celery_url() -> str:
    """The plain Redis the cluster benchmarks give Celery: ``REDIS_URL``, else 127.0.0.1:6379 database 6."""
    return os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/6")


def until(condition: Callable[[], object], what: str, bound: float = 60.0) -> float:
    """Poll ``condition`` every 50 ms until it holds; the seconds it took (RuntimeError after ``bound``)."""
    started = time.monotonic()
    while True:
        try:
            if condition():
                return time.monotonic() - started
        except redis.RedisError:
            pass  # a node still starting, or the one just killed
        if time.monotonic() - started > bound:
            raise RuntimeError(f"{what}: not after {bound} s")
        time.sleep(0.05)


class LoopbackCluster:
    """``MASTERS × (1 + replicas)`` nodes on ``base_port`` and up (six with one replica); see module docstring."""

    def __init__(self, base_port: int, root: Path, replicas: int = 1) -> None:
        self.replicas = replicas
        self.masters = MASTERS  # how many masters a healthy cluster has (a drill adding or removing one moves it)
        self.ports = [base_port + i for i in range(MASTERS * (1 + replicas))]
        self.root = root
        self.processes: dict[int, subprocess.Popen] = {}

    @property
    def nodes(self) -> str:
        """The ``REDIS_CLUSTER_NODES`` value naming every node."""
        return ",".join(f"127.0.0.1:{port}" for port in self.ports)

    def api_env(self, celery_url: str, **extra: str) -> dict[str, str]:
        """Settings of an API whose games live on this cluster, with Celery on the plain Redis at
        ``celery_url`` (kombu has no cluster transport)."""
        return {
            "REDIS_CLUSTER_NODES": self.nodes,
            "CELERY_BROKER_URL": celery_url,
            "CELERY_RESULT_BACKEND": celery_url,
            **extra,
        }

    def node(self, port: int) -> redis.Redis:
        return redis.Redis(port=port, socket_timeout=2, socket_connect_timeout=2)

    def start_node(self, port: int) -> None:
        """A node on ``port``, answering (a port not yet in :attr:`ports` is added: a node to join the cluster)."""
        if port not in self.ports:
            self.ports.append(port)
        directory = self.root / str(port)
        directory.mkdir(exist_ok=True)
        cmd = [
            redis_server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--dir", str(directory),
            "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", str(NODE_TIMEOUT_MS), "--cluster-replica-validity-factor", "0",
            "--cluster-require-full-coverage", "no", "--save", "", "--appendonly", "no",
            "--logfile", str(directory / "redis.log"),  # failovers and migrations, for a kept drill's reader
        ]  # fmt: skip
        self.processes[port] = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
        until(lambda: self.node(port).ping(), f"redis node {port} answering", 20)

    def create(self) -> None:
        for port in self.ports:
            self.start_node(port)
        cli = shutil.which("redis-cli") or shutil.which("valkey-cli")
        if cli is None:
            raise RuntimeError("redis-cli is needed to create a cluster")
        addresses = [f"127.0.0.1:{port}" for port in self.ports]
        subprocess.run(
            [cli, "--cluster", "create", *addresses, "--cluster-replicas", str(self.replicas), "--cluster-yes"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        until(self.healthy, "cluster_state:ok with every replica linked")

    def live_ports(self) -> list[int]:
        return [port for port in self.ports if self.processes[port].poll() is None]

    def healthy(self) -> bool:
        """Every live node says ``cluster_state:ok``; every master has a replica whose link is up."""
        masters = 0
        for port in self.live_ports():
            node = self.node(port)
            if not self.state_ok(port):
                return False
            replication = node.info("replication")
            if replication["role"] == "master":
                masters += 1
                if self.replicas and replication["connected_slaves"] < 1:
                    return False
            elif replication["master_link_status"] != "up":
                return False
        return masters == self.masters

    def state_ok(self, port: int) -> bool:
        info = self.node(port).execute_command("CLUSTER", "INFO")
        text = info.decode() if isinstance(info, bytes) else str(info)
        return "cluster_state:ok" in text

    def master_of(self, key: str) -> int:
        """The port of the master serving ``key``'s slot, as the live nodes see it."""
        for port in self.ports:
            if self.processes[port].poll() is None:
                slot = int(self.node(port).execute_command("CLUSTER", "KEYSLOT", key))
                for start, end, master, *_ in self.node(port).execute_command("CLUSTER", "SLOTS"):
                    if start <= slot <= end:
                        return int(master[1])
        raise RuntimeError("no live node")

    def node_id(self, port: int) -> str:
        return self.node(port).execute_command("CLUSTER", "MYID").decode()

    def nodes_seen_by(self, port: int) -> str:
        """``CLUSTER NODES`` as the node on ``port`` sees the cluster (a line a node)."""
        return self.node(port).execute_command("CLUSTER", "NODES").decode()

    def knows(self, port: int, other: int) -> bool:
        """The node on ``port`` lists the one on ``other`` as a member (its handshake over)."""
        lines = self.nodes_seen_by(port).splitlines()
        return any(f" {self.address(other)}@" in line and "handshake" not in line for line in lines)

    def address(self, port: int) -> str:
        return f"127.0.0.1:{port}"

    def slot_owners(self) -> list[int]:
        """The port of each slot's master (0: none), as the first live node sees it."""
        owners = [0] * REDIS_CLUSTER_HASH_SLOTS
        for start, end, master, *_ in self.node(self.live_ports()[0]).execute_command("CLUSTER", "SLOTS"):
            owners[start : end + 1] = [int(master[1])] * (end - start + 1)
        return owners

    def keys_by_slot(self) -> list[int]:
        """How many keys each slot holds now, counted on every live master (its keys are on one, or while the
        slot migrates on two)."""
        counts = [0] * REDIS_CLUSTER_HASH_SLOTS
        for port in self.live_ports():
            node = self.node(port)
            if node.info("replication")["role"] == "master":
                for key in node.scan_iter(count=1000):
                    counts[key_slot(key)] += 1
        return counts

    def spare_ports(self, count: int) -> list[int]:
        """``count`` free ports (and their bus ports) for nodes to join the cluster."""
        base = free_base_port(count)
        return [base + i for i in range(count)]

    def kill(self, port: int) -> None:
        """SIGKILL a node: no goodbye to the cluster, as when a machine dies."""
        self.processes[port].send_signal(signal.SIGKILL)
        self.processes[port].wait()

    def restart(self, port: int) -> None:
        """Start a killed node again with its ``nodes.conf``: it rejoins as a replica of whoever took its slots."""
        self.start_node(port)

    def cut_off(self, master: int) -> int:
        """Freeze ``master``'s replica (SIGSTOP) and drop its link, so none of the master's next writes reaches it:
        a replica behind its master when the master dies.  The replica's port; :meth:`thaw` wakes it."""
        replica = next(
            port for port in self.live_ports() if self.node(port).info("replication").get("master_port") == master
        )
        self.processes[replica].send_signal(signal.SIGSTOP)
        self.node(master).client_kill_filter(_type="replica")
        return replica

    def thaw(self, port: int) -> None:
        """Wake a node :meth:`cut_off` froze."""
        self.processes[port].send_signal(signal.SIGCONT)

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGCONT)  # a frozen node (cut_off) would not hear the stop
            stop(process, timeout=5)


@contextmanager
def loopback_cluster(base_port: int | None = None, replicas: int = 1) -> Iterator[LoopbackCluster]:
    """A created, healthy cluster with ``replicas`` per master (ports from ``TEST_CLUSTER_BASE_PORT``, default
    7101); torn down after."""
    base = base_port or int(os.environ.get("TEST_CLUSTER_BASE_PORT", "7101"))
    with tempfile.TemporaryDirectory(prefix="spades-cluster-") as root:
        cluster = LoopbackCluster(base, Path(root), replicas)
        try:
            cluster.create()
            yield cluster
        finally:
            cluster.stop()
