"""The Redis client for the game store: one Redis at ``REDIS_URL``, or the cluster of ``REDIS_CLUSTER_NODES``.

Every pool (one Redis's, or each cluster node's) makes a request wait up to the socket timeout for a free
connection rather than fail at once: under gevent thousands of requests may reach Redis together.
"""

from __future__ import annotations

from typing import Any

import redis
from redis.cluster import ClusterNode, RedisCluster

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
    else:
        client = redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(config["REDIS_URL"], **common))
    return client
