"""Arenas in Redis (:class:`services.api.store.arena_rooms.ArenaRooms`): per arena, all under its event's hash tag,
``arena:{<id>}:meta`` (its version), ``:entrants`` (a hash of documents), ``:standings`` (a sorted set scored by
the negated score, so ``ZRANGE`` ranks highest first and ties by id), ``:pool`` (a sorted set by arrival),
``:games`` (a hash of documents) and ``:games_order`` (when each was put in).  Every change is one
``lua/arena/write.lua`` over the version it was read at, sent as a game's commit is
(:class:`services.api.store.redis_confirmed.ConfirmedScript`: a change the replicas do not confirm is made but
answered ``503 not_replicated``); every key expires a month after the arena's last change, as its event does."""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson
import redis
from redis.cluster import RedisCluster

from services.api.store.arena_rooms import ArenaBatch
from services.api.store.lua_scripts import lua
from services.api.store.redis_confirmed import ConfirmedScript
from services.api.store.redis_event_docs import TTL_SECONDS

if TYPE_CHECKING:
    from services.api.store.redis_store import RedisStore

WRITE_LUA = lua("arena/write.lua")
PARTS = ("meta", "entrants", "standings", "pool", "games", "games_order")


def arena_keys(event_id: str) -> dict[str, str]:
    return {part: f"arena:{{{event_id}}}:{part}" for part in PARTS}


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RedisArenaRooms:
    def __init__(self, client: redis.Redis | RedisCluster, wait_replicas: int = 0, wait_timeout_ms: int = 500) -> None:
        self.client = client
        self._write = ConfirmedScript(client, WRITE_LUA, wait_replicas, wait_timeout_ms)

    @classmethod
    def beside(cls, store: RedisStore) -> RedisArenaRooms:
        """The arenas on ``store``'s client, confirmed by as many replicas as its commits are."""
        return cls(store.client, store.wait_replicas, store.wait_timeout_ms)

    def arena_version(self, event_id: str) -> int:
        return int(self.client.hget(arena_keys(event_id)["meta"], "v") or 0)

    def arena_entrants(self, event_id: str, ids: list[str]) -> list[bytes | None]:
        return self.client.hmget(arena_keys(event_id)["entrants"], ids) if ids else []

    def arena_pool(self, event_id: str) -> list[str]:
        return [_text(i) for i in self.client.zrange(arena_keys(event_id)["pool"], 0, -1)]

    def arena_games(self, event_id: str, limit: int) -> list[tuple[str, bytes]]:
        keys = arena_keys(event_id)
        ids = [_text(i) for i in self.client.zrange(keys["games_order"], 0, limit - 1)]
        docs = self.client.hmget(keys["games"], ids) if ids else []
        return [(i, doc) for i, doc in zip(ids, docs, strict=True) if doc is not None]

    def arena_waiting(self, event_id: str) -> int:
        return int(self.client.zcard(arena_keys(event_id)["pool"]))

    def arena_game(self, event_id: str, game_id: str) -> bytes | None:
        return self.client.hget(arena_keys(event_id)["games"], game_id)

    def arena_games_count(self, event_id: str) -> int:
        return int(self.client.hlen(arena_keys(event_id)["games"]))

    def arena_standings(self, event_id: str, start: int, count: int) -> list[tuple[str, int]]:
        found = self.client.zrange(arena_keys(event_id)["standings"], start, start + count - 1, withscores=True)
        return [(_text(i), -int(score)) for i, score in found]

    def arena_rank(self, event_id: str, entrant_id: str) -> int | None:
        stored = self.client.zscore(arena_keys(event_id)["standings"], entrant_id)
        return None if stored is None else self.arena_above(event_id, -int(stored))

    def arena_above(self, event_id: str, score: int) -> int:
        return int(self.client.zcount(arena_keys(event_id)["standings"], "-inf", f"({-score}"))  # stored negated

    def arena_size(self, event_id: str) -> int:
        return int(self.client.zcard(arena_keys(event_id)["standings"]))

    def write_arena(self, event_id: str, read_at: int, batch: ArenaBatch) -> bool:
        change = {
            "entrants": {i: doc.decode() for i, doc in batch.entrants.items()},
            "standings": batch.standings,
            "pool_add": batch.pool_add,
            "pool_remove": batch.pool_remove,
            "games_add": {i: doc.decode() for i, doc in batch.games_add.items()},
            "games_remove": batch.games_remove,
        }
        keys = list(arena_keys(event_id).values())
        # an empty map or list decodes to an empty table in cjson, which pairs and ipairs both walk as nothing
        written, confirmed = self._write.run(keys, [read_at, TTL_SECONDS, orjson.dumps(change)])
        if written and self._write.unconfirmed(confirmed):  # made, but a failover could take it back: a 503
            raise self._write.not_replicated(f"arena {event_id}", confirmed)
        return bool(written)
