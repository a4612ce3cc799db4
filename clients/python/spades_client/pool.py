"""The client's connection pool: connections kept alive between requests, none reused close to the server's
keep-alive limit.

A server closes a connection left idle for its keep-alive time; a request sent on it just then is lost
(``ConnectionResetError``), and a create, claim or leave is not repeated (:mod:`spades_client.client`).  urllib3
drops a connection it sees closed, but not one the server closes as the request goes out, so the pool opens a
connection idle more than ``IDLE_LIMIT_S`` again before its next request.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import requests
import requests.adapters
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

IDLE_LIMIT_S = 3.0  # below the server's keep-alive (gunicorn.conf.py, 5 s by default)


def _fresh_pool(base: type[HTTPConnectionPool], idle_limit: float, clock: Callable[[], float]) -> type:
    """``base`` opening a kept-alive connection idle more than ``idle_limit`` seconds (by ``clock``) again."""

    class FreshPool(base):  # type: ignore[valid-type,misc]
        def _put_conn(self, conn: Any) -> None:
            if conn is not None:
                conn.spades_idle_since = clock()
            super()._put_conn(conn)

        def _get_conn(self, timeout: float | None = None) -> Any:
            conn = super()._get_conn(timeout)
            since = getattr(conn, "spades_idle_since", None)
            if since is not None and clock() - since > idle_limit:
                conn.close()  # urllib3 connects it again on its next request
            return conn

    return FreshPool


class FreshConnectionAdapter(requests.adapters.HTTPAdapter):
    """An adapter whose pools never reuse a connection idle more than ``idle_limit`` seconds (:func:`_fresh_pool`)."""

    def __init__(self, *args: Any, idle_limit: float = IDLE_LIMIT_S, clock: Callable[[], float] = time.monotonic,
                 **kwargs: Any) -> None:  # fmt: skip
        self.pool_classes = {
            "http": _fresh_pool(HTTPConnectionPool, idle_limit, clock),
            "https": _fresh_pool(HTTPSConnectionPool, idle_limit, clock),
        }
        super().__init__(*args, **kwargs)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = self.pool_classes

    def proxy_manager_for(self, proxy: str, **proxy_kwargs: Any) -> Any:
        manager = super().proxy_manager_for(proxy, **proxy_kwargs)
        manager.pool_classes_by_scheme = self.pool_classes
        return manager


def pooled_session(connections: int = 64, idle_limit: float = IDLE_LIMIT_S) -> requests.Session:
    """A session keeping up to ``connections`` connections per host: a runner's games share it, each with an
    open stream beside its moves (requests' default keeps 10 and drops the rest after each use); a connection
    idle more than ``idle_limit`` seconds is opened again before its next request (:class:`FreshConnectionAdapter`)."""
    session = requests.Session()
    adapter = FreshConnectionAdapter(pool_connections=4, pool_maxsize=connections, idle_limit=idle_limit)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session
