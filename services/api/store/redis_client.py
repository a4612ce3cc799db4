"""The Redis client for the game store: one Redis at ``REDIS_URL``, or the cluster of ``REDIS_CLUSTER_NODES``.

Every pool (one Redis's, or each cluster node's) makes a request wait up to the socket timeout for a free
connection rather than fail at once: under gevent thousands of requests may reach Redis together.

A cluster client's slot map also finds a master it does not list: redis-py (8.1) builds its map from ``CLUSTER
SLOTS``, which leaves out a master that owns no slot yet, and follows an ``ASK`` by looking its target up there:
an ``ASK`` to a new master, while the first slots move to it, fails with an ``AttributeError`` on ``None`` (a 500;
redis-py issue #4015).  :class:`_NodesFound` adds such a node to the map as a master, as redis-py does for a
``MOVED`` to a node it does not know.
"""

from __future__ import annotations

from typing import Any

import redis
from redis.cluster import PRIMARY, ClusterNode, NodesManager, RedisCluster

from services.api.config import cluster_nodes


def make_client(config: dict[str, Any]) -> redis.Redis | RedisCluster:
    """The client these settings name."""
    timeout = float(config["REDIS_SOCKET_TIMEOUT"])
    common = {
        "socket_timeout": timeout,
        "socket_connect_timeout": timeout,
        "health_check_interval": 30,
        "retry_on_timeout": False,
        "max_connections": int(config["REDIS_MAX_CONNECTIONS"]),  # per process (per node on a cluster)
        "timeout": timeout,  # the blocking pool's wait for a free connection
    }
    nodes = cluster_nodes(config)
    if nodes:
        (host, port), others = nodes[0], nodes[1:]
        password = config["REDIS_CLUSTER_PASSWORD"] or None
        # redis-py builds each node's pool from connection_pool_class only for a client made from a
        # URL (otherwise a plain pool, which refuses a request over max_connections at once).
        # require_full_coverage=False: a shard between losing its master and promoting the replica
        # must not stop the client from serving every other shard's games.
        client: redis.Redis | RedisCluster = RedisCluster(
            url=f"redis://{f'[{host}]' if ':' in host else host}:{port}",
            startup_nodes=[ClusterNode(h, p) for h, p in others],
            connection_pool_class=redis.BlockingConnectionPool,
            require_full_coverage=False,
            password=password,
            **common,
        )
        client.nodes_manager.__class__ = _NodesFound  # see the module docstring
    else:
        client = redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(config["REDIS_URL"], **common))
    return client


def node_at(nodes: NodesManager, host: str, port: int) -> ClusterNode:
    """The node at ``host:port`` in the client's slot map, added to it as a master if it is not there (a master
    without slots yet: the module docstring)."""
    node = nodes.nodes_cache.get(f"{host}:{port}")
    if node is None:
        new = ClusterNode(host, port, PRIMARY)
        node = nodes.nodes_cache.setdefault(new.name, new)
    return node


class _NodesFound(NodesManager):
    """redis-py's slot map, but a node looked up by name alone (an ``ASK``'s target) is always found."""

    def get_node(self, host: str | None = None, port: int | None = None, node_name: str | None = None) -> Any:
        node = super().get_node(host, port, node_name)
        if node is None and node_name is not None and host is None and port is None:
            found_host, _, found_port = node_name.rpartition(":")
            node = node_at(self, found_host, int(found_port))
        return node
