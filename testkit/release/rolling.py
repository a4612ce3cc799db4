"""A rolling upgrade (and its rollback) on a chaos stack (:class:`testkit.chaos_stack.ChaosStack`), one process
at a time, as a Deployment's rollout does it (docs/operations.md, "Deploy"):

* **an API server**: one of the release to come is started and, once it answers, takes its share of the
  requests (:class:`Endpoints`, a Service's list of ready pods); the one it replaces leaves the list and, after
  ``prestop`` seconds (the API Deployment's preStop ``sleep``: what was sent to it still arrives and is served),
  is sent SIGTERM: gunicorn stops accepting, its workers finish the requests in flight and drain their waiting
  clients (``drain_on_term``: long polls answered, streams ended, so their clients come back on another
  server), then exit (``graceful_timeout``);
* **an AI worker**: one of the release to come is started on the node and answers a ping; the one it replaces
  is sent SIGTERM, Celery's warm shutdown: it takes no more tasks, finishes the one it runs (late acks: it is
  acknowledged when done), and the deliveries it held unstarted go back to the queue;

  each as a Deployment with ``maxSurge: 1, maxUnavailable: 0`` does it: the next new process starts once the last
  one is ready, while the one it replaced is still stopping (:meth:`Rollout.stopped` waits for them all);
* **a records migration step**: the release's ``python -m services.api.records.database`` (its start's
  migrations, ``--contract``, ``--undo-contract``) run as a deployment's migration job.

Each step is timed and kept with its window (its start to its end plus a grace): an answer the clients got
in it is the step's.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..chaos_invariants import Window
from ..chaos_stack import ChaosStack
from ..chaos_stores import wait_until

SERVICE = "http://spades.service"  # the address the load sends every request to (Endpoints routes it)
API_STOP_BOUND = 40.0  # gunicorn's graceful_timeout is 10 s: a server still up after this is a finding
WORKER_STOP_BOUND = 60.0  # a warm shutdown waits for the task it runs (its hard limit is 20 s)


@dataclass(frozen=True)
class Version:
    """A release: its name and the checkout it runs from."""

    name: str
    root: Path


class Endpoints:
    """The API servers a request may go to, as a Service's endpoints: a request for :data:`SERVICE` goes to one
    picked at random among those ready now; each is known by its port and the release it runs."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.lock = threading.Lock()
        self.ready: list[str] = []
        self.releases: dict[int, str] = {}  # port -> release, every server ever listed

    def add(self, base: str, release: str) -> None:
        with self.lock:
            self.ready.append(base)
            self.releases[urlsplit(base).port or 0] = release

    def remove(self, base: str) -> None:
        with self.lock:
            self.ready.remove(base)

    def route(self, url: str) -> str:
        if not url.startswith(SERVICE):
            return url
        with self.lock:
            base = self.rng.choice(self.ready)
        return base + url[len(SERVICE) :]

    def release_of(self, url: str) -> str | None:
        """The release of the server that answered ``url``."""
        return self.releases.get(urlsplit(url).port or 0)


@dataclass
class Step:
    """One step of a rollout: what it did, when (seconds on the run's clock) and what it found."""

    kind: str  # expand | api_server | ai_worker | contract | undo_contract
    release: str
    start: float
    end: float | None = None
    details: dict[str, Any] = field(default_factory=dict)
    error: str | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "release": self.release, "start_s": round(self.start, 2)}
        out["end_s"] = None if self.end is None else round(self.end, 2)
        out["duration_s"] = None if self.end is None else round(self.end - self.start, 2)
        out.update(self.details)
        if self.error:
            out["error"] = self.error
        return out


class Rollout:
    """Runs the steps on ``stack`` and keeps them (:attr:`steps`); ``clock`` is the run's."""

    def __init__(
        self, stack: ChaosStack, endpoints: Endpoints, clock: Callable[[], float], grace: float, prestop: float = 5.0
    ) -> None:
        self.stack, self.endpoints, self.clock, self.grace, self.prestop = stack, endpoints, clock, grace, prestop
        self.steps: list[Step] = []
        self._stopping: list[threading.Thread] = []

    def windows(self, end: float) -> list[Window]:
        return [Window(s.kind, s.start, (end if s.end is None else s.end) + self.grace) for s in self.steps]

    def _step(self, kind: str, version: Version, action: Callable[[Step], Callable[[], None] | None]) -> Step:
        """``action`` does the step up to the old process's stop, which it returns to run on a thread of its own
        (the next step starts meanwhile); the step ends when that does."""
        step = Step(kind, version.name, self.clock())
        self.steps.append(step)

        def ended(work: Callable[[], object]) -> None:
            try:
                work()
            except Exception as failure:  # kept with the step; the run goes on and the invariants judge it
                step.error = f"{type(failure).__name__}: {failure}"
            step.end = self.clock()

        rest: list[Callable[[], None] | None] = [None]
        ended(lambda: rest.__setitem__(0, action(step)))
        stop = rest[0]
        if stop is not None and step.error is None:
            step.end = None
            thread = threading.Thread(target=ended, args=(stop,), name=f"release-stop-{kind}", daemon=True)
            self._stopping.append(thread)
            thread.start()
        return step

    def stopped(self) -> None:
        """Every replaced process has stopped (or was killed past its bound)."""
        for thread in self._stopping:
            thread.join()
        self._stopping.clear()

    # -- API servers -------------------------------------------------------------------------------

    def replace_api_server(self, index: int, version: Version) -> Step:
        def action(step: Step) -> Callable[[], None]:
            process, base = self.stack.start_api_server(f"api-{index}-{version.name}", version.root)
            step.details["started_s"] = round(self.clock() - step.start, 2)
            old_process, old_base = self.stack.servers[index], self.stack.bases[index]
            self.endpoints.add(base, version.name)
            self.endpoints.remove(old_base)
            self.stack.servers[index], self.stack.bases[index] = process, base

            def stop() -> None:
                time.sleep(self.prestop)  # the preStop hook: unlisted, still serving what reached it
                draining = self.clock()
                old_process.send_signal(signal.SIGTERM)  # gunicorn's graceful stop
                try:
                    old_process.wait(timeout=API_STOP_BOUND)
                except subprocess.TimeoutExpired:
                    old_process.kill()
                    old_process.wait()
                    raise RuntimeError(f"the old server did not stop within {API_STOP_BOUND:.0f} s") from None
                step.details["drained_s"] = round(self.clock() - draining, 2)
                step.details["old_exit_code"] = old_process.returncode

            return stop

        return self._step("api_server", version, action)

    # -- AI workers --------------------------------------------------------------------------------

    def replace_ai_worker(self, node_index: int, version: Version) -> Step:
        def action(step: Step) -> Callable[[], None]:
            node = self.stack.nodes[node_index]
            old = node.worker
            assert old is not None
            self.stack.start_ai_worker(node, version.root, name=f"worker-{node_index}-{version.name}")
            step.details["started_s"] = round(self.clock() - step.start, 2)
            stopping = self.clock()
            held = set(node.client.hkeys("unacked"))  # deliveries in hand before the warm shutdown
            old.send_signal(signal.SIGTERM)  # Celery's warm shutdown: the main process finishes its task, then exits

            def left() -> set[bytes]:
                return held & set(node.client.hkeys("unacked"))

            def stop() -> None:
                try:
                    old.wait(timeout=WORKER_STOP_BOUND)
                except subprocess.TimeoutExpired:
                    os.killpg(old.pid, signal.SIGKILL)
                    old.wait()
                    raise RuntimeError(f"the old worker did not stop within {WORKER_STOP_BOUND:.0f} s") from None
                step.details["warm_shutdown_s"] = round(self.clock() - stopping, 2)
                step.details["old_exit_code"] = old.returncode
                # what the stopped worker held is acknowledged (finished) or back in a queue: none left in hand
                wait_until(lambda: not left(), 10.0, pause=0.1)
                step.details["deliveries_left_in_hand"] = len(left())

            return stop

        return self._step("ai_worker", version, action)

    # -- the records database ----------------------------------------------------------------------

    def migration(self, kind: str, version: Version, *arguments: str) -> Step:
        """The release's migration job (``kind``: expand, contract, undo_contract)."""

        def action(step: Step) -> None:
            env = {**os.environ, "RECORDS_DATABASE_URL": self.stack.database.url, "PYTHONPATH": str(version.root)}
            command = [sys.executable, "-m", "services.api.records.database", *arguments]
            done = subprocess.run(command, cwd=version.root, env=env, capture_output=True, text=True, timeout=120)
            step.details["command"] = " ".join(command[1:])
            if done.returncode != 0:
                raise RuntimeError(f"exit {done.returncode}: {done.stderr[-800:]}")
            step.details["log"] = done.stderr.strip().splitlines()[-1:]

        return self._step(kind, version, action)
