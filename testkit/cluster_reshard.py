"""The resharding drill's cluster steps: a master (with its replicas) added and given its share of the slots, and
a master emptied and removed, each by docs/operations.md's "Reshard" commands run as written
(:mod:`testkit.runbook`), on a :class:`~testkit.redis_cluster.LoopbackCluster` that games are being played on.

Each step is measured from the cluster itself: the slots whose master changed (``CLUSTER SLOTS`` before and
after), the keys those slots held when the step began (every master's keys counted by slot), the seconds of each
runbook block, and the step's window on the drill's clock (its first command to its last).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import runbook
from .redis_cluster import LoopbackCluster

BLOCKS = ("cluster-checks", "add-master", "fill-master", "empty-master", "remove-master")


@dataclass
class Step:
    """One step: its kind (``add``, ``remove``), window, blocks' seconds and what moved."""

    kind: str
    start: float
    end: float = 0.0
    target: str = ""
    blocks: dict[str, float] = field(default_factory=dict)
    slots_moved: int = 0
    keys_moved: int = 0
    masters_after: int = 0
    error: str | None = None
    nodes: str = ""  # CLUSTER NODES when the step failed

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "target": self.target, "start_s": round(self.start, 2)}
        out |= {"end_s": round(self.end, 2), "seconds": round(self.end - self.start, 2)}
        out |= {"blocks_s": {name: round(s, 2) for name, s in self.blocks.items()}}
        out |= {"slots_moved": self.slots_moved, "keys_moved": self.keys_moved, "masters_after": self.masters_after}
        if self.error:
            out |= {"error": self.error, "cluster_nodes_then": self.nodes.splitlines()}
        return out


class Resharder:
    """Runs the steps on ``cluster`` (see the module docstring); ``work`` is the runbook's working directory."""

    def __init__(self, cluster: LoopbackCluster, work: Path, clock: Callable[[], float], seed: int) -> None:
        self.cluster, self.work, self.clock = cluster, work, clock
        self.rng = random.Random(seed)
        self.steps: list[Step] = []
        self.blocks_run: list[str] = []
        self.original = set(cluster.ports)  # the nodes the cluster began with

    def _run(self, step: Step, block: str, **env: str) -> None:
        """The runbook's ``block`` (after the shared functions), through a master that keeps its slots."""
        named = {address for value in env.values() for address in value.split()}
        contact = min(p for p in set(self.cluster.slot_owners()) - {0} if self.cluster.address(p) not in named)
        ran = runbook.run(("cluster-checks", block), {"CLUSTER_NODE": self.cluster.address(contact), **env}, self.work)
        step.blocks[block] = ran.seconds
        self.blocks_run += [name for name in ran.names if name not in self.blocks_run]

    def add(self, replicas: int) -> Step:
        """A new master and ``replicas`` replicas of it join (``add-master``), then the slots are rebalanced over
        every master (``fill-master``)."""
        cluster = self.cluster
        master, *followers = cluster.spare_ports(1 + replicas)
        for port in (master, *followers):
            cluster.start_node(port)
        step = Step("add", self.clock(), target=cluster.address(master))
        joining = {"NEW_MASTER": cluster.address(master), "NEW_REPLICAS": " ".join(map(cluster.address, followers))}

        def both() -> None:
            self._run(step, "add-master", **joining)
            self._run(step, "fill-master")

        self._measured(step, both, masters=cluster.masters + 1)
        return step

    def remove(self) -> Step:
        """One of the masters the cluster began with (chosen by the seed) emptied (``empty-master``), then it and
        its replicas forgotten by the cluster (``remove-master``) and stopped."""
        cluster = self.cluster
        leaving = self.rng.choice(sorted(set(cluster.slot_owners()) & self.original))
        lines = cluster.node(leaving).execute_command("CLUSTER", "REPLICAS", cluster.node_id(leaving))
        replicas = [int(line.split()[1].split(b"@")[0].rsplit(b":", 1)[1]) for line in lines]  # id ip:port@bus …
        step = Step("remove", self.clock(), target=cluster.address(leaving))
        address = cluster.address(leaving)

        def both() -> None:
            self._run(step, "empty-master", LEAVING=address)
            self._run(step, "remove-master", LEAVING=address)
            for port in (leaving, *replicas):  # forgotten by the cluster: what an operator stops next
                cluster.processes[port].terminate()
                cluster.processes[port].wait(timeout=30)

        self._measured(step, both, masters=cluster.masters - 1)
        return step

    def _measured(self, step: Step, action: Callable[[], object], masters: int) -> None:
        """``action`` run as ``step``, with what it moved; an error ends the step and is kept with it."""
        before, keys = self.cluster.slot_owners(), self.cluster.keys_by_slot()
        self.steps.append(step)
        try:
            self.cluster.masters = masters  # from now on a healthy cluster has this many
            action()
        except Exception as error:  # reported with the step; the invariants still judge the stores
            step.error = f"{type(error).__name__}: {error}"
            step.nodes = self.cluster.nodes_seen_by(min(self.cluster.live_ports()))
        step.end = self.clock()
        after = self.cluster.slot_owners()
        moved = [slot for slot, (old, new) in enumerate(zip(before, after, strict=True)) if old != new]
        step.slots_moved, step.keys_moved = len(moved), sum(keys[slot] for slot in moved)
        step.masters_after = len(set(after) - {0})
