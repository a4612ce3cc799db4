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

ITEMS, OPEN, CHECK, LOG, SEQ = (f"lobby:{{tables}}:{name}" for name in ("items", "open", "check", "log", "seq"))
LOG_SIZE = 1000  # changes kept for the lobby stream's resume (LOBBY_LOG_SIZE)

SYNC_LUA = """
local items, open, check, log, seq, notify = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local id, v, listed, item, created = ARGV[1], tonumber(ARGV[2]), ARGV[3] == '1', ARGV[4], ARGV[5]
local now, check_at, log_max, prune = ARGV[6], ARGV[7], ARGV[8], ARGV[9] == '1'
local cur = redis.call('HGET', items, id)
local was_open, cur_item = false, ''
if cur then
  local cv, co, ci = string.match(cur, '^(%d+) ([01]) (.*)$')
  if tonumber(cv) > v then return '' end  -- a newer version's sync landed first
  was_open, cur_item = co == '1', ci
end
local kind = ''
if listed then
  if not was_open then kind = 'table_opened' elseif cur_item ~= item then kind = 'table_changed' end
  redis.call('HSET', items, id, ARGV[2] .. ' 1 ' .. item)
  redis.call('ZADD', open, created, id)
  redis.call('ZADD', check, check_at, id)
else
  if was_open then kind = 'table_closed' end
  redis.call('ZREM', open, id)
  if prune and not was_open then
    redis.call('HDEL', items, id)
    redis.call('ZREM', check, id)
  else
    redis.call('HSET', items, id, ARGV[2] .. ' 0 ')
    redis.call('ZADD', check, check_at, id)
  end
end
if kind ~= '' then
  local n = redis.call('INCR', seq)
  local shown = 'null'
  if listed then shown = item end
  local change = '{"seq":' .. n .. ',"type":"' .. kind .. '","game_id":"' .. id .. '","at_ms":' .. now ..
    ',"table":' .. shown .. '}'
  redis.call('XADD', log, 'MAXLEN', log_max, n .. '-0', 'e', change)
  redis.call('SPUBLISH', notify, change)
end
return kind
"""

CLAIM_LUA = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], id) end
return due
"""

PAGE_LUA = """
local items, open, seq = KEYS[1], KEYS[2], KEYS[3]
local top, after, count = ARGV[1], ARGV[2], tonumber(ARGV[3])
local skip = 0
if after ~= '' then  -- ties on the cursor's score come in descending id order: skip those not after it
  for _, id in ipairs(redis.call('ZREVRANGEBYSCORE', open, top, top)) do
    if id >= after then skip = skip + 1 end
  end
end
local found = redis.call('ZREVRANGEBYSCORE', open, top, '-inf', 'WITHSCORES', 'LIMIT', skip, count)
local reply = {redis.call('GET', seq) or '0'}
for i = 1, #found, 2 do
  reply[#reply + 1] = found[i]
  reply[#reply + 1] = found[i + 1]
  reply[#reply + 1] = redis.call('HGET', items, found[i]) or ''
end
return reply
"""


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
