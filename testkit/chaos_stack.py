"""The whole service on loopback for the chaos drill (``benchmarks.chaos``), with a tool for each fault.

* games on a :class:`~testkit.redis_cluster.LoopbackCluster` (3 masters, a replica each), a change
  acknowledged once a replica has it (``REDIS_WAIT_REPLICAS=1``);
* the AI path on ``broker_nodes`` plain Redis servers (``AI_BROKER_URLS``), each with a Celery worker of its
  own (prefork, one pool process, every level's two queues), as one Deployment per node runs them;
* ``api_servers`` gunicorn servers of ``api_workers`` worker processes each (the clients spread over them);
* records in a private PostgreSQL (``RECORDS_DATABASE_URL``) that the drill stops and starts.

Every port is a free one and every process is the stack's own: a fault tool acts only on those.  Logs go to
files under the stack's directory (``logs``), so a benchmark's stdout stays its JSON.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import psutil
import redis
import requests
from celery import Celery
from redis.cluster import RedisCluster

from services.api.config import load_config
from services.api.store.redis_client import make_client

from .postgres import PrivatePostgres, answers
from .processes import ALL_QUEUES, ROOT, free_port, start_gunicorn, start_redis, start_worker, stop
from .redis_cluster import MASTERS, LoopbackCluster, free_base_port

UNACKED = "unacked"  # kombu's Redis transport: deliveries not yet acknowledged (late acks), by delivery tag
UNACKED_INDEX = "unacked_index"  # the same deliveries, scored by when each was made
RESULT_PREFIX = "celery-task-meta-"  # Celery's Redis result backend: a task's stored result


@dataclass
class StackSettings:
    api_servers: int = 2
    api_workers: int = 2
    broker_nodes: int = 2
    ai_deadline: float = 5.0  # AI_DECISION_DEADLINE_SECONDS: a lost turn is re-sent this long after its send
    env: dict[str, str] = field(default_factory=dict)  # more settings for the API servers
    root: Path = ROOT  # the checkout the stack's servers and workers run at start


@dataclass
class BrokerNode:
    """An AI broker node: its Redis server and the worker consuming it."""

    index: int
    port: int
    server: subprocess.Popen
    worker: subprocess.Popen | None = None
    worker_started: float = 0.0  # when the running worker was started (Unix seconds)
    stale: set[bytes] = field(default_factory=set)  # deliveries a killed worker left unacknowledged

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @cached_property
    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=1, socket_connect_timeout=1)


class ChaosStack:
    """See the module docstring.  :meth:`start` brings everything up; :meth:`stop` takes it down."""

    def __init__(self, root: Path, settings: StackSettings) -> None:
        self.root = root
        self.settings = settings
        self.logs = root / "logs"
        self.cluster = LoopbackCluster(free_base_port(MASTERS * 2), root / "cluster", replicas=1)
        self.database = PrivatePostgres(free_port(), root / "postgres")
        self.nodes: list[BrokerNode] = []
        self.servers: list[subprocess.Popen] = []
        self.bases: list[str] = []

    # -- bringing it up and down -----------------------------------------------------------------------

    def start(self) -> None:
        """Everything up, the independent parts at once (the workers' and servers' start-up is mostly imports)."""
        self.logs.mkdir(parents=True, exist_ok=True)
        (self.root / "cluster").mkdir()
        for index in range(self.settings.broker_nodes):
            port = free_port()
            directory = self.root / f"broker-{index}"
            directory.mkdir()
            self.nodes.append(BrokerNode(index, port, start_redis(port, str(directory), appendonly=False)))
        with ThreadPoolExecutor(4) as pool:
            parts = [pool.submit(self.cluster.create), pool.submit(self._start_database)]
            parts += [pool.submit(self.start_ai_worker, node) for node in self.nodes]
            for part in parts:
                part.result()
            servers = [pool.submit(self.start_api_server, f"api-{index}") for index in range(self.settings.api_servers)]
            for server in servers:
                process, base = server.result()
                self.servers.append(process)
                self.bases.append(base)

    def start_api_server(self, name: str, root: Path | None = None) -> tuple[subprocess.Popen, str]:
        """One more API server (gunicorn) of the checkout at ``root`` (the stack's), logging to ``name``.log; not
        yet among :attr:`servers` (a rolling upgrade adds it, then drains the one it replaces)."""
        root = root or self.settings.root
        env = {**self.api_env(), "PYTHONPATH": str(root)}
        log = self.logs / f"{name}.log"
        return start_gunicorn(env["REDIS_URL"], workers=self.settings.api_workers, env=env, log_path=log, root=root)

    def _start_database(self) -> None:
        self.database.init()
        self.database.start()

    def api_env(self) -> dict[str, str]:
        """The API servers' settings (see the module docstring): CELERY_* name node 0 beside AI_BROKER_URLS, as the
        k8s-brokers overlay's Secret does; REDIS_URL names a port nothing listens on."""
        urls = ",".join(node.url for node in self.nodes)
        settings = dict(
            REDIS_URL=f"redis://127.0.0.1:{free_port()}/0",
            REDIS_WAIT_REPLICAS="1",
            AI_BROKER_URLS=urls,
            RECORDS_DATABASE_URL=self.database.url,
            AI_DECISION_DEADLINE_SECONDS=str(self.settings.ai_deadline),
            AI_SWEEP_INTERVAL_SECONDS="1",
            RATE_LIMIT_ENABLED="0",  # every client is on 127.0.0.1: one address's budget would refuse the load
            COMPUTER_GAME_PACE_SECONDS="0",
            LOG_LEVEL="WARNING",
        )
        return self.cluster.api_env(self.nodes[0].url, **{**settings, **self.settings.env})

    def stop(self) -> None:
        """Everything down at once (SIGKILL: nothing of a drill's stack is kept), the database stopped fast."""
        for server in self.servers:
            stop(server, sig=signal.SIGQUIT)
        for node in self.nodes:
            if node.worker is not None:
                self._kill_group(node.worker, signal.SIGKILL)
            stop(node.server, sig=signal.SIGKILL)
        for process in self.cluster.processes.values():
            stop(process, sig=signal.SIGKILL)
        if (self.database.data_dir / "postmaster.pid").exists():
            with contextlib.suppress(subprocess.CalledProcessError):
                self.database.stop()

    def store_client(self) -> RedisCluster:
        """A client of the game store as the API makes it (reads fail over with the cluster)."""
        config = load_config({"REDIS_CLUSTER_NODES": self.cluster.nodes, "REDIS_SOCKET_TIMEOUT": 2.0})
        return make_client(config)

    # -- API worker processes --------------------------------------------------------------------------

    def api_worker_pids(self, server: int) -> list[int]:
        return [child.pid for child in psutil.Process(self.servers[server].pid).children() if child.is_running()]

    def api_workers_back(self, server: int, killed: int) -> bool:
        """The server's master has started a worker in place of ``killed``: as many live workers as before."""
        pids = [pid for pid in self.api_worker_pids(server) if pid != killed and psutil.pid_exists(pid)]
        return len(pids) >= self.settings.api_workers

    # -- AI workers ------------------------------------------------------------------------------------

    def start_ai_worker(self, node: BrokerNode, root: Path | None = None, name: str = "") -> subprocess.Popen:
        """A worker of the checkout at ``root`` (the stack's) consuming ``node``, as the node's worker (the one a
        rolling upgrade replaces is left running: the caller stops it)."""
        root = root or self.settings.root
        env = {"CELERY_BROKER_URL": node.url, "CELERY_RESULT_BACKEND": node.url, "PYTHONPATH": str(root)}
        started = time.time()
        worker = start_worker(
            node.url, queues=ALL_QUEUES, concurrency=1, env=env, root=root, timeout=300.0,
            log_path=self.logs / f"{name or f'worker-{node.index}'}.log",
        )  # fmt: skip
        node.worker, node.worker_started = worker, started
        return worker

    def pool_processes(self, node: BrokerNode) -> list[int]:
        """The pids of the worker's pool processes (those that run the tasks)."""
        assert node.worker is not None
        with contextlib.suppress(psutil.NoSuchProcess):
            return [child.pid for child in psutil.Process(node.worker.pid).children()]
        return []

    def deliveries(self, node: BrokerNode) -> list[bytes]:
        """The delivery tags the node has handed its running worker and not had acknowledged (late acks: a task
        being run).  A killed worker's deliveries stay unacknowledged until kombu's visibility timeout: those
        before the worker started (``unacked_index`` scores each by when it was made) and those still there once
        the kill was over (``node.stale``) are left out."""
        tags = node.client.zrangebyscore(UNACKED_INDEX, node.worker_started, "+inf")
        return [tag for tag in tags if tag not in node.stale]

    def unfinished_tasks(self, node: BrokerNode) -> list[str]:
        """Ids of the tasks of :meth:`deliveries` the node holds no result of: decisions being made (kombu keeps
        each delivery as ``[message, exchange, routing key]``; Celery's ``headers`` name the task; the node is its
        own result backend)."""
        tags = self.deliveries(node)
        raws = node.client.hmget(UNACKED, tags) if tags else []
        ids = [json.loads(raw)[0]["headers"]["id"] for raw in raws if raw is not None]
        return [task_id for task_id in ids if not node.client.exists(f"{RESULT_PREFIX}{task_id}")]

    def forget_deliveries(self, node: BrokerNode) -> None:
        """After a kill: what is still unacknowledged belongs to no running task."""
        node.stale |= set(node.client.hkeys(UNACKED))

    def freeze_ai_worker(self, node: BrokerNode, frozen: bool) -> None:
        """SIGSTOP (or SIGCONT) the node's worker, main process and pool: a frozen worker stays where it was."""
        assert node.worker is not None
        os.killpg(node.worker.pid, signal.SIGSTOP if frozen else signal.SIGCONT)

    def kill_ai_worker(self, node: BrokerNode) -> None:
        """SIGKILL the whole worker (its main process and its pool): nothing is left to restart it."""
        assert node.worker is not None
        self._kill_group(node.worker, signal.SIGKILL)

    def worker_answers(self, node: BrokerNode) -> bool:
        """The node answers and a worker consuming it answers a ping through it."""
        client = Celery(broker=node.url, set_as_current=False)
        try:
            return bool(client.control.ping(timeout=0.5))
        except Exception:
            return False
        finally:
            client.close()

    @staticmethod
    def _kill_group(process: subprocess.Popen, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    # -- broker nodes ----------------------------------------------------------------------------------

    def kill_broker(self, node: BrokerNode) -> None:
        node.server.send_signal(signal.SIGKILL)
        node.server.wait()

    def restart_broker(self, node: BrokerNode) -> None:
        """The node's Redis again on its port, empty (nothing kept on disk: what it carried is lost)."""
        node.server = start_redis(node.port, str(self.root / f"broker-{node.index}"), appendonly=False)

    # -- the records database --------------------------------------------------------------------------

    def database_answers(self) -> bool:
        return answers(self.database.url, timeout=1)

    # -- all of it -------------------------------------------------------------------------------------

    def settled(self) -> bool:
        """Every part is up: the cluster healthy, each node and its worker answering, the database answering,
        each API server with all its workers and answering."""
        if not self.cluster.healthy() or not self.database_answers():
            return False
        if not all(self.worker_answers(node) for node in self.nodes):
            return False
        for index, base in enumerate(self.bases):
            if len(self.api_worker_pids(index)) < self.settings.api_workers:
                return False
            try:
                if requests.get(base + "/healthz", timeout=2).status_code != 200:
                    return False
            except requests.RequestException:
                return False
        return True

    def describe(self) -> dict[str, Any]:
        return {
            "cluster": {"masters": MASTERS, "replicas_per_master": 1, "ports": self.cluster.ports},
            "broker_nodes": [node.port for node in self.nodes],
            "ai_workers": {"per_node": 1, "pool": "prefork", "concurrency": 1},
            "api": {"servers": self.bases, "workers_per_server": self.settings.api_workers},
            "records_database": f"postgresql on 127.0.0.1:{self.database.port}",
        }


@contextmanager
def chaos_stack(settings: StackSettings, keep: Path | None = None) -> Iterator[ChaosStack]:
    """A started :class:`ChaosStack` in a new directory (``keep``'s parent when given, else removed after)."""
    root = Path(tempfile.mkdtemp(prefix="spades-chaos-", dir=keep))
    root.chmod(0o755)  # the private PostgreSQL runs as the postgres user when the caller is root
    stack = ChaosStack(root, settings)
    try:
        stack.start()
        yield stack
    finally:
        stack.stop()
        if keep is None:
            shutil.rmtree(root, ignore_errors=True)
