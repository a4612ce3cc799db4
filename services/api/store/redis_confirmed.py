"""A script sent as a game's commit is: at most once (:class:`services.api.store.redis_send.AtMostOnce`: never
re-sent blind; on a cluster it follows a failover), with ``WAIT`` behind it when replicas must confirm changes.
The events' documents and the arenas write through it, so an answered change (a round begun, a wave's games named,
a game scored) survives a failover as an answered move does (docs/api.md, "Redis Cluster and failover")."""

from __future__ import annotations

from typing import Any

import redis
from redis.cluster import RedisCluster

from services.api.store.protocol import NotReplicated
from services.api.store.redis_send import AtMostOnce


class ConfirmedScript:
    def __init__(
        self, client: redis.Redis | RedisCluster, source: str, wait_replicas: int = 0, wait_timeout_ms: int = 500
    ) -> None:
        self.client = client
        self.source = source
        self.wait_replicas = wait_replicas
        self._script = client.register_script(source)
        self._wait = [("WAIT", wait_replicas, wait_timeout_ms)] if wait_replicas else []
        self._sender = AtMostOnce(client)

    def run(self, keys: list[str], args: list[Any]) -> tuple[Any, int | None]:
        """The script's reply, and how many replicas confirmed it (None when none must): the caller raises
        :meth:`unconfirmed` once it has done what must follow the change anyway."""
        commands = [("EVALSHA", self._script.sha, len(keys), *keys, *args), *self._wait]
        try:
            replies = self._sender.send_once(keys[0], *commands)
        except redis.exceptions.NoScriptError:  # a restarted or promoted Redis: load the script, then send it
            self.client.script_load(self.source)
            replies = self._sender.send_once(keys[0], *commands)
        return replies[0], (int(replies[-1]) if self.wait_replicas else None)

    def unconfirmed(self, confirmed: int | None) -> bool:
        return confirmed is not None and confirmed < self.wait_replicas

    def not_replicated(self, what: str, confirmed: int | None) -> NotReplicated:
        return NotReplicated(f"{what}: {confirmed} of {self.wait_replicas} replicas confirmed")
