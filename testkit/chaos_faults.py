"""The chaos drill's fault injector: the five kinds of fault, each at random times during the load, each
recorded with its target, its start and its recovery.

* ``api_worker``: SIGKILL one gunicorn worker process of one API server; recovered when its master has started
  a replacement and that process has connected to the game store (its app is up: its AI sweep runs);
* ``ai_worker``: SIGKILL a Celery worker of one broker node mid-decision: once the node has handed it a task
  (its ``unacked`` hash), the worker is frozen (SIGSTOP) and, if that task is still unfinished (neither
  acknowledged nor answered), killed: either its pool process (the worker's main process, thawed, starts
  another and the task is requeued) or the whole worker, main process and pool (then a new worker is started
  here, and the API's deadline sweep re-sends the turn); recovered when a worker of the node answers a ping;
* ``redis_master``: SIGKILL a master of the game store's Redis Cluster (only when every master has a linked
  replica); once its replica is promoted the node is started again and rejoins as that one's replica, as the
  failover drill does; recovered when every master has a linked replica again;
* ``records_db``: stop the records PostgreSQL for ``db_outage`` seconds, then start it; recovered when it
  answers;
* ``broker_node``: SIGKILL one broker node's Redis, start it again (empty) ``broker_outage`` seconds later;
  recovered when its worker answers a ping through it again.

Faults of one kind follow each other (the next waits for the last one's recovery); different kinds overlap
freely, except that a broker node and its worker are never both under a fault (a worker started while its
broker is down could not be told ready).  A fault's window is its start to its recovery plus ``grace``.
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import psutil

from .chaos_invariants import Window
from .chaos_stack import BrokerNode, ChaosStack
from .chaos_stores import wait_until

KINDS = ("api_worker", "ai_worker", "redis_master", "records_db", "broker_node")
RECOVERY_BOUND = 120.0  # a fault not recovered by then is reported as such (its window stays open)


@dataclass
class FaultSettings:
    db_outage: float = 30.0
    broker_outage: float = 10.0
    grace: float = 5.0  # after a recovery, how long a fault's effects may still show (its window's tail)


@dataclass
class Fault:
    kind: str
    start: float
    target: str = ""
    recovered: float | None = None
    details: dict[str, Any] = field(default_factory=dict)
    error: str | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "target": self.target, "start_s": round(self.start, 2)}
        out["recovered_s"] = None if self.recovered is None else round(self.recovered, 2)
        out["recovery_s"] = None if self.recovered is None else round(self.recovered - self.start, 2)
        out.update(self.details)
        if self.error:
            out["error"] = self.error
        return out


def plan(
    count: int, first: float, last: float, rng: random.Random, kinds: tuple[str, ...] = KINDS
) -> list[tuple[float, str]]:
    """``count`` faults at random times in [first, last]: the kinds in turn (each kind ``count // len(kinds)``
    times or once more), in a random order."""
    chosen = [kinds[i % len(kinds)] for i in range(count)]
    rng.shuffle(chosen)
    times = sorted(rng.uniform(first, last) for _ in range(count))
    return list(zip(times, chosen, strict=True))


class Injector:
    """Runs a :func:`plan` against ``stack`` (one thread per kind); ``faults`` is what happened."""

    def __init__(self, stack: ChaosStack, clock: Callable[[], float], settings: FaultSettings, seed: int) -> None:
        self.stack, self.clock, self.settings = stack, clock, settings
        self.rng = random.Random(seed)
        self.faults: list[Fault] = []
        self._lock = threading.Lock()
        self._nodes_busy: set[int] = set()
        self._threads: list[threading.Thread] = []

    def start(self, schedule: list[tuple[float, str]]) -> None:
        for kind in KINDS:
            times = [at for at, planned in schedule if planned == kind]
            if times:
                thread = threading.Thread(target=self._run_kind, args=(kind, times), name=f"chaos-{kind}", daemon=True)
                self._threads.append(thread)
                thread.start()

    def join(self) -> None:
        for thread in self._threads:
            thread.join()

    def windows(self, end: float) -> list[Window]:
        """Each fault's window; one never recovered stays open to ``end``."""
        grace = self.settings.grace
        return [Window(f.kind, f.start, end if f.recovered is None else f.recovered + grace) for f in self.faults]

    def _run_kind(self, kind: str, times: list[float]) -> None:
        inject = getattr(self, f"_{kind}")
        for at in times:
            while self.clock() < at:
                time.sleep(min(0.2, at - self.clock()))
            fault = Fault(kind, self.clock())
            try:
                inject(fault)
            except Exception as error:  # reported with the fault; the run's invariants still judge the stores
                fault.error = f"{type(error).__name__}: {error}"
            with self._lock:
                self.faults.append(fault)

    def _recovered(self, fault: Fault, condition: Callable[[], bool]) -> None:
        if wait_until(condition, RECOVERY_BOUND, pause=0.05) is not None:
            fault.recovered = self.clock()
        else:
            fault.error = f"not recovered within {RECOVERY_BOUND:.0f} s"

    # -- the kinds -------------------------------------------------------------------------------------

    def _api_worker(self, fault: Fault) -> None:
        server = self.rng.randrange(len(self.stack.servers))
        pid = self.rng.choice(self.stack.api_worker_pids(server))
        fault.target = f"API server {server}, worker pid {pid}"
        fault.start = self.clock()
        os.kill(pid, signal.SIGKILL)
        cluster = set(self.stack.cluster.ports)

        def replaced() -> bool:
            """As many workers as before, each connected to the game store (its app is up: its AI sweep runs)."""
            for new in set(self.stack.api_worker_pids(server)) - {pid}:
                remote = {c.raddr.port for c in psutil.Process(new).net_connections("tcp") if c.raddr}
                if not remote & cluster:
                    return False
            return self.stack.api_workers_back(server, pid)

        self._recovered(fault, replaced)

    def _ai_worker(self, fault: Fault) -> None:
        node = self._take_node()
        try:
            whole = self.rng.random() < 0.5
            fault.target = f"broker node {node.index}: {'the whole worker' if whole else 'its pool process'}"
            waited = wait_until(lambda: self._frozen_mid_decision(node, fault), 60.0, pause=0.002)
            if waited is None:
                raise RuntimeError("the worker was never caught mid-decision in 60 s")
            fault.details["waited_for_a_decision_s"] = round(waited, 2)
            fault.start = self.clock()
            if whole:
                self.stack.kill_ai_worker(node)
                self.stack.start_ai_worker(node)
            else:
                os.kill(self.stack.pool_processes(node)[0], signal.SIGKILL)
                self.stack.freeze_ai_worker(node, False)  # its main process notices and starts another
            self._recovered(fault, lambda: self.stack.worker_answers(node))
            self.stack.forget_deliveries(node)
        finally:
            self._free_node(node)

    def _frozen_mid_decision(self, node: BrokerNode, fault: Fault) -> bool:
        """Once the node shows its worker a task, freeze the worker; if that task is still unfinished (neither
        acknowledged nor answered), it stays frozen mid-decision: True.  Else it is thawed: False."""
        if not self.stack.deliveries(node):
            return False
        self.stack.freeze_ai_worker(node, True)
        try:
            unfinished = self.stack.unfinished_tasks(node)
        except Exception:
            self.stack.freeze_ai_worker(node, False)  # never left frozen by a failed look
            raise
        if unfinished:
            fault.details["killed_during_task"] = unfinished[0]
            return True
        self.stack.freeze_ai_worker(node, False)
        return False

    def _redis_master(self, fault: Fault) -> None:
        cluster = self.stack.cluster
        if wait_until(cluster.healthy, RECOVERY_BOUND) is None:
            raise RuntimeError("the cluster never had a replica linked to every master")
        masters = [p for p in cluster.live_ports() if cluster.node(p).info("replication")["role"] == "master"]
        victim = self.rng.choice(masters)
        fault.target = f"master 127.0.0.1:{victim}"
        fault.start = self.clock()
        cluster.kill(victim)

        def promoted() -> bool:
            live = next(p for p in cluster.live_ports())
            slots = cluster.node(live).execute_command("CLUSTER", "SLOTS")
            return all(int(master[1]) != victim for _start, _end, master, *_ in slots)

        if wait_until(promoted, RECOVERY_BOUND, pause=0.05) is None:
            raise RuntimeError("no replica promoted")
        fault.details["promoted_after_s"] = round(self.clock() - fault.start, 2)
        cluster.restart(victim)
        self._recovered(fault, cluster.healthy)

    def _records_db(self, fault: Fault) -> None:
        fault.target = f"postgresql 127.0.0.1:{self.stack.database.port}"
        fault.start = self.clock()
        self.stack.database.stop()
        time.sleep(self.settings.db_outage)  # the outage's length: what the fault is
        fault.details["restarted_after_s"] = round(self.clock() - fault.start, 2)
        self.stack.database.start()
        self._recovered(fault, self.stack.database_answers)

    def _broker_node(self, fault: Fault) -> None:
        node = self._take_node()
        try:
            fault.target = f"broker node {node.index} (127.0.0.1:{node.port})"
            fault.start = self.clock()
            self.stack.kill_broker(node)
            time.sleep(self.settings.broker_outage)  # the outage's length: what the fault is
            self.stack.restart_broker(node)
            fault.details["restarted_after_s"] = round(self.clock() - fault.start, 2)
            self._recovered(fault, lambda: self.stack.worker_answers(node))
        finally:
            self._free_node(node)

    def _take_node(self) -> BrokerNode:
        """A broker node no other fault is acting on (waits for one)."""
        while True:
            with self._lock:
                free = [node for node in self.stack.nodes if node.index not in self._nodes_busy]
                if free:
                    node = self.rng.choice(free)
                    self._nodes_busy.add(node.index)
                    return node
            time.sleep(0.1)

    def _free_node(self, node: BrokerNode) -> None:
        with self._lock:
            self._nodes_busy.discard(node.index)
