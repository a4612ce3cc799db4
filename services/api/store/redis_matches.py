"""Quick match in Redis (:class:`services.api.store.matches.MatchQueue`): a script per step, on a bucket's slot.

A bucket's keys share its hash tag ``{m:<bucket>}`` (:func:`services.api.store.matches.bucket_tag`):

* ``mm:{m:B}:r`` — hash: request id → the request as JSON (:meth:`MatchRequest.stored`, plus ``g``, ``seat``, ``e``);
* ``mm:{m:B}:q`` — sorted set of the waiting requests, by arrival (Unix ms);
* ``mm:{m:B}:g`` and ``:forming`` — each group (its members) and its lease's end (Unix ms);
* ``mm:{m:B}:spec`` — the bucket's rules and clock; ``mm:{m:B}:ended`` — ended requests by when they go;
* ``mm:{m:B}:n`` — the shard channel of the ids of the requests a script changed.

The keys expire a day after the bucket's last change.  The due buckets are
:mod:`services.api.store.redis_match_due`'s.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import redis
from redis.cluster import RedisCluster

from services.api.store.matches import (
    Formed,
    Group,
    MatchRequest,
    MatchTimes,
    bucket_tag,
    match_channel,
)

PRELUDE = """
local r, q, forming, groups, spec, ended, notify = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]
local now, lease, idle, keep = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local ttl, gids, used, touched = ARGV[5], {ARGV[6], ARGV[7]}, 0, {}
local function load(id)
  local raw = redis.call('HGET', r, id)
  if raw then return cjson.decode(raw) end
  return nil
end
local function save(id, rec) redis.call('HSET', r, id, cjson.encode(rec)) end
local function finish(id, rec, status)
  rec.s = status
  rec.e = now
  save(id, rec)
  redis.call('ZREM', q, id)
  redis.call('ZADD', ended, now + keep, id)
  touched[#touched + 1] = id
end
local function prune()
  local old = redis.call('ZRANGEBYSCORE', ended, '-inf', now, 'LIMIT', 0, 100)
  if #old > 0 then
    redis.call('HDEL', r, unpack(old))
    redis.call('ZREM', ended, unpack(old))
  end
end
local function waiting()  -- waiting requests in arrival order; idle ones expire
  local out = {}
  for _, id in ipairs(redis.call('ZRANGE', q, 0, -1)) do
    local rec = load(id)
    if rec == nil or rec.s ~= 'w' then redis.call('ZREM', q, id)
    elseif rec.seen < now - idle then finish(id, rec, 'x')
    else out[#out + 1] = {id, rec} end
  end
  return out
end
local function form(members)
  used = used + 1
  local gid, ids = gids[used], {}
  for seat, m in ipairs(members) do
    m[2].s, m[2].g, m[2].seat = 'f', gid, seat - 1
    save(m[1], m[2])
    redis.call('ZREM', q, m[1])
    ids[seat] = m[1]
  end
  redis.call('HSET', groups, gid, cjson.encode({m = ids, t = now}))
  redis.call('ZADD', forming, now + lease, gid)
  return gid
end
local function group_of(gid)
  local g = cjson.decode(redis.call('HGET', groups, gid))
  local reply = {gid, redis.call('GET', spec) or ''}
  for _, id in ipairs(g.m) do
    reply[#reply + 1] = id
    reply[#reply + 1] = redis.call('HGET', r, id) or ''
  end
  return reply
end
local function finished(reply)
  for _, key in ipairs({r, q, forming, groups, spec, ended}) do redis.call('EXPIRE', key, ttl) end
  if #touched > 0 then redis.call('SPUBLISH', notify, cjson.encode(touched)) end
  return reply
end
"""

ENQUEUE_LUA = (
    PRELUDE
    + """
prune()
local rec = cjson.decode(ARGV[9])
redis.call('HSET', r, ARGV[8], ARGV[9])
redis.call('ZADD', q, rec.c, ARGV[8])
redis.call('SET', spec, ARGV[10])
local live = waiting()
local reply = {-1}
if #live >= 4 then reply[2] = group_of(form({live[1], live[2], live[3], live[4]})) end
return finished(reply)
"""
)

FORM_LUA = (
    PRELUDE
    + """
prune()
local formed, live = {}, waiting()
while #live >= 4 and used < #gids do
  formed[#formed + 1] = form({live[1], live[2], live[3], live[4]})
  live = {unpack(live, 5)}
end
local soonest = nil
for _, m in ipairs(live) do
  if soonest == nil or m[2].d < soonest then soonest = m[2].d end
end
if soonest and soonest <= now and used < #gids then
  formed[#formed + 1] = form(live)
  live, soonest = {}, nil
end
for _, gid in ipairs(redis.call('ZRANGEBYSCORE', forming, '-inf', now, 'LIMIT', 0, 10)) do
  redis.call('ZADD', forming, now + lease, gid)  -- its creator died (or is slow): the caller completes it
  formed[#formed + 1] = gid
end
local nxt = soonest
local first = redis.call('ZRANGE', forming, 0, 0, 'WITHSCORES')
if first[2] and (nxt == nil or tonumber(first[2]) < nxt) then nxt = tonumber(first[2]) end
if #live >= 4 or (soonest and soonest <= now) then nxt = now end  -- out of game ids: look again at once
local reply = {nxt or -1}
for _, gid in ipairs(formed) do reply[#reply + 1] = group_of(gid) end
return finished(reply)
"""
)

SEATED_LUA = (
    PRELUDE
    + """
local raw = redis.call('HGET', groups, ARGV[8])
if not raw then return {} end
local reply = {}
for _, id in ipairs(cjson.decode(raw).m) do
  local rec = load(id)
  if rec and rec.s == 'f' and rec.g == ARGV[8] then
    rec.s, rec.e = 'S', now
    save(id, rec)
    redis.call('ZADD', ended, now + keep, id)
    touched[#touched + 1] = id
    reply[#reply + 1] = id
    reply[#reply + 1] = cjson.encode(rec)
  end
end
redis.call('HDEL', groups, ARGV[8])
redis.call('ZREM', forming, ARGV[8])
return finished(reply)
"""
)

LOOK_LUA = (
    PRELUDE
    + """
local rec = load(ARGV[8])
if rec == nil then return false end
if rec.s == 'w' then
  rec.seen = now
  save(ARGV[8], rec)
end
return cjson.encode(rec)
"""
)

CANCEL_LUA = (
    PRELUDE
    + """
local rec = load(ARGV[8])
if rec == nil then return false end
if rec.s == 'w' then finish(ARGV[8], rec, 'c') end
finished({})
return cjson.encode(rec)
"""
)

_SCRIPTS = {
    "enqueue": ENQUEUE_LUA,
    "form": FORM_LUA,
    "seated": SEATED_LUA,
    "look": LOOK_LUA,
    "cancel": CANCEL_LUA,
}


def bucket_keys(bucket: str) -> list[str]:
    """A bucket's keys in the scripts' order (KEYS[1] … KEYS[7])."""
    tag = bucket_tag(bucket)
    return [*(f"mm:{tag}:{name}" for name in ("r", "q", "forming", "g", "spec", "ended")), match_channel(bucket)]


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


def _groups(replies: list[Any]) -> tuple[Group, ...]:
    groups = []
    for reply in replies:
        members = tuple(
            MatchRequest.from_stored(_text(reply[i]), reply[i + 1]) for i in range(2, len(reply), 2) if reply[i + 1]
        )
        groups.append(Group(_text(reply[0]), _text(reply[1]), members))
    return tuple(groups)


class RedisMatches:
    """The quick-match operations of :class:`services.api.store.redis_store.RedisStore`."""

    client: redis.Redis | RedisCluster

    @cached_property
    def _match_scripts(self) -> dict[str, Any]:
        return {name: self.client.register_script(lua) for name, lua in _SCRIPTS.items()}

    def _bucket_call(self, name: str, bucket: str, times: MatchTimes, game_ids: list[str], *extra: Any) -> Any:
        ids = [*game_ids, "", ""][:2]
        args = [times.now_ms, times.lease_ms, times.idle_ms, times.keep_ms, times.ttl_seconds, *ids, *extra]
        return self._match_scripts[name](keys=bucket_keys(bucket), args=args)

    def enqueue_match(
        self, bucket: str, request: MatchRequest, spec: str, times: MatchTimes, game_ids: list[str]
    ) -> Formed:
        reply = self._bucket_call("enqueue", bucket, times, game_ids, request.match_id, request.stored(), spec)
        return Formed(_groups(reply[1:]), None)

    def form_matches(self, bucket: str, times: MatchTimes, game_ids: list[str]) -> Formed:
        reply = self._bucket_call("form", bucket, times, game_ids)
        due = int(reply[0])
        return Formed(_groups(reply[1:]), None if due < 0 else due)

    def match_seated(self, bucket: str, game_id: str, times: MatchTimes) -> list[MatchRequest]:
        reply = self._bucket_call("seated", bucket, times, [], game_id)
        return [MatchRequest.from_stored(_text(reply[i]), reply[i + 1]) for i in range(0, len(reply), 2)]

    def look_match(self, bucket: str, match_id: str, times: MatchTimes) -> MatchRequest | None:
        raw = self._bucket_call("look", bucket, times, [], match_id)
        return None if raw is None else MatchRequest.from_stored(match_id, raw)

    def cancel_match(self, bucket: str, match_id: str, times: MatchTimes) -> MatchRequest | None:
        raw = self._bucket_call("cancel", bucket, times, [], match_id)
        return None if raw is None else MatchRequest.from_stored(match_id, raw)
