"""The public tables' listing in Redis (:class:`services.api.store.lobby_tables.TableListing`).

Every key is on one slot, the ``{tables}`` hash tag: the listing is read in one order (newest first, paged by
cursor) and its log has one sequence, so a sync (entry, order, check, log, publication) is one script.  Its
writes are a few per public table (its creation, claims, leaves, its end, a check a minute while listed), not
one per move: a game that is not public never touches it.

* ``lobby:{tables}:items`` — hash: game id → ``"<version> <1|0> <item JSON>"`` (0: a tombstone, no item);
* ``lobby:{tables}:open`` — sorted set of the listed games, scored by their creation (Unix ms);
* ``lobby:{tables}:check`` — sorted set: each entry's next check (Unix seconds);
* ``lobby:{tables}:log`` — stream of changes, entry id ``<seq>-0``, field ``e``; ``lobby:{tables}:seq`` the last seq;
* ``lobby:{tables}:notify`` — the shard channel each change is published on (its JSON, as logged).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import orjson
import redis
from redis.cluster import RedisCluster

from services.api.store.lobby_tables import TABLES_CHANNEL, TableEntry, TablesPage
from services.api.store.lua_scripts import lua

ITEMS, OPEN, CHECK, LOG, SEQ = (f"lobby:{{tables}}:{name}" for name in ("items", "open", "check", "log", "seq"))
LOG_SIZE = 1000  # changes kept for the lobby stream's resume (LOBBY_LOG_SIZE)

SYNC_LUA = lua("listing/sync.lua")

CLAIM_LUA = lua("listing/claim.lua")

PAGE_LUA = lua("listing/page.lua")


class RedisTables:
    """The listing operations of :class:`services.api.store.redis_store.RedisStore`."""

    client: redis.Redis | RedisCluster
    tables_log_size: int = LOG_SIZE

    @cached_property
    def _tables_scripts(self) -> dict[str, Any]:
        return {name: self.client.register_script(lua) for name, lua in _SCRIPTS.items()}

    def expect_table(self, game_id: str, due: float) -> None:
        self.client.zadd(CHECK, {game_id: due}, lt=True)  # an earlier check stays

    def sync_table(self, entry: TableEntry, now_ms: int, check_at: float, prune: bool = False) -> str | None:
        args = [entry.game_id, entry.version, "1" if entry.listed else "0", entry.item, entry.created_ms]
        args += [now_ms, repr(check_at), self.tables_log_size, "1" if prune else "0"]
        kind = self._tables_scripts["sync"](keys=[ITEMS, OPEN, CHECK, LOG, SEQ, TABLES_CHANNEL], args=args)
        kind = kind.decode() if isinstance(kind, bytes) else kind
        return kind or None

    def claim_tables(self, now: float, lease: float, limit: int) -> list[str]:
        claimed = self._tables_scripts["claim"](keys=[CHECK], args=[repr(now), repr(now + lease), limit])
        return [raw.decode() for raw in claimed]

    def tables_page(self, before: tuple[int, str] | None, count: int) -> TablesPage:
        top, after = ("+inf", "") if before is None else (str(before[0]), before[1])
        reply = self._tables_scripts["page"](keys=[ITEMS, OPEN, SEQ], args=[top, after, count])
        entries = []
        for i in range(1, len(reply), 3):
            raw = reply[i + 2].decode()
            item = raw.split(" ", 2)[2] if raw.count(" ") >= 2 else ""
            if item:  # (an entry's hash field and its order are written together: never apart)
                entries.append((reply[i].decode(), int(float(reply[i + 1])), item))
        return TablesPage(entries, int(reply[0]))

    def table_changes_after(self, after: int, limit: int) -> list[dict[str, Any]]:
        found = self.client.xrange(LOG, min=f"{after + 1}-0", max="+", count=limit)
        return [orjson.loads(fields[b"e"]) for _, fields in found]


_SCRIPTS = {"sync": SYNC_LUA, "claim": CLAIM_LUA, "page": PAGE_LUA}
