"""The backends every side store's contract suite runs on: the memory store (unit), one Redis (database 10 of the
tests' server, flushed before each test; CONTRIBUTING.md) and the session's Redis Cluster (not flushed: other
tests share it, so a contract test names its games, creators and holders with :class:`Names`)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from services.api.config import load_config
from services.api.games.record import GameRecord
from services.api.store.memory_store import MemoryStore
from services.api.store.redis_store import make_store
from tests.conftest import redis_url

CONTRACT_DB = 10
BACKENDS = [
    "memory",
    pytest.param("redis", marks=pytest.mark.integration),
    pytest.param("cluster", marks=pytest.mark.integration),
]


def open_store(request: pytest.FixtureRequest, **settings: str) -> Iterator[Any]:
    """The store of ``request.param`` (one of :data:`BACKENDS`), closed after the test."""
    if request.param == "memory":
        yield MemoryStore(GameRecord.from_stored)
        return
    if request.param == "redis":
        redis.Redis.from_url(redis_url(CONTRACT_DB)).flushdb()
        made = make_store(load_config({"REDIS_URL": redis_url(CONTRACT_DB), **settings}), GameRecord.from_stored)
    else:
        nodes = request.getfixturevalue("redis_cluster").nodes
        made = make_store(load_config({"REDIS_CLUSTER_NODES": nodes, **settings}), GameRecord.from_stored)
    yield made
    made.client.close()


class Names:
    """Ids of the test's own (``name`` and a random tail), so no earlier test on the shared Cluster is in the way;
    ``made`` lists them, for a suite to clear what lives outside their keys (the shared timers' entries)."""

    def __init__(self) -> None:
        self.made: list[str] = []

    def __call__(self, name: str) -> str:
        self.made.append(f"{name}-{secrets.token_hex(4)}")
        return self.made[-1]


END = 1e15  # Unix s: later than any deadline


def forget_turn(store, game_id: str) -> None:
    """Take a game's deadline off the timers, whatever it is: claimed at the end of time, then given back."""
    if store.claim_turn(game_id, END, END):
        store.release_turn(game_id, END)
