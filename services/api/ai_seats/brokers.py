"""The AI path's broker nodes: which Redis carries a game's AI tasks and results.

One Redis (broker and result backend) carries every decision's ~18 commands, and kombu has no Redis Cluster
transport, so the AI path grows past one Redis by adding *nodes*: independent Redis servers, each a broker
and its own result backend, with its own workers.  ``AI_BROKER_URLS`` lists them in order; every task of a
game goes to the node :func:`node_of` names from the game's id, so every API process (and the benchmarks)
agrees on the mapping without asking anyone.  Unset, the one node is today's ``CELERY_BROKER_URL`` and
``CELERY_RESULT_BACKEND`` (both defaulting to ``REDIS_URL``).

The mapping is a stable hash of the game id over the ordered list: changing the list moves games between
nodes, which costs at most one deadline per moved game's pending turn (the sweep re-sends it), never a move.
"""

from __future__ import annotations

import hashlib
from typing import Any, NamedTuple


def connect_once(connection: Any) -> None:
    """Connect a kombu connection now or raise: one immediate retry, no back-off.  kombu's own retries wait
    seconds between attempts, which a probe or a scrape must not spend on a node that is down."""
    connection.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=1.0)


class BrokerNode(NamedTuple):
    """One node of the AI path: where its tasks are sent and where their results come back."""

    name: str  # its position in AI_BROKER_URLS ("0", "1", …): the metrics' and /readyz's label
    broker: str
    backend: str


def broker_nodes(config: dict[str, Any]) -> list[BrokerNode]:
    """The nodes these settings name, in order (one when ``AI_BROKER_URLS`` is unset)."""
    urls = [url.strip() for url in str(config.get("AI_BROKER_URLS") or "").split(",") if url.strip()]
    if urls:
        return [BrokerNode(str(index), url, url) for index, url in enumerate(urls)]
    broker = config["CELERY_BROKER_URL"] or config["REDIS_URL"]
    backend = config["CELERY_RESULT_BACKEND"] or config["REDIS_URL"]
    return [BrokerNode("0", broker, backend)]


def node_of(game_id: str, nodes: int) -> int:
    """The index of the node carrying ``game_id``'s AI traffic among ``nodes`` (stable across processes and
    Python runs: SHA-1, not ``hash``, which is salted per process)."""
    if nodes <= 1:
        return 0
    digest = hashlib.sha1(game_id.encode()).digest()
    return int.from_bytes(digest[:8], "big") % nodes
