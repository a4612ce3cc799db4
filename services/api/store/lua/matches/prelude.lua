-- What every quick-match step shares: a bucket's keys and arguments, and its helpers.
-- KEYS: r (hash: request id -> JSON), q (waiting ids by arrival), forming (groups by lease end),
--       groups (hash: group id -> members), spec (the bucket's rules and clock), ended (ended ids by
--       when they go), notify (the bucket's channel)
-- ARGV: now, lease, idle, keep (ms), ttl (s), two fresh game ids; each step's own from ARGV[8]

-- luacheck: push ignore 211 (each step calls only some of these helpers)
local r, q, forming, groups, spec, ended, notify = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]
local now, lease, idle, keep = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local ttl, gids, used, touched = ARGV[5], {ARGV[6], ARGV[7]}, 0, {}
local queued = redis.call('ZCARD', q)  -- the waiting requests before the step: a change wakes every waiter
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
-- Who sits together (services/api/store/match_groups.py, the same rule): a pair is kept apart when one's
-- player is among the players the other's blocked ("av").
local function avoids(a, b)
  if not a.av or not b.p then return false end
  for _, id in ipairs(a.av) do
    if id == b.p[1] then return true end
  end
  return false
end
local function kept_apart(a, b) return avoids(a, b) or avoids(b, a) end
local function table_from(live, first)  -- indexes of a table of up to four seating live[first], ascending
  local pick = {first}
  for i = 1, #live do
    if #pick >= 4 then break end
    if i ~= first then
      local free = true
      for _, j in ipairs(pick) do
        if kept_apart(live[i][2], live[j][2]) then free = false break end
      end
      if free then pick[#pick + 1] = i end
    end
  end
  table.sort(pick)
  return pick
end
local function four(live)  -- the first table of four, trying the first 16 as its first request; or nil
  if #live < 4 then return nil end
  for first = 1, math.min(#live, 16) do
    local pick = table_from(live, first)
    if #pick == 4 then return pick end
  end
  return nil
end
local function take(live, pick)  -- the members of pick, taken out of live (in place)
  local members = {}
  for _, i in ipairs(pick) do members[#members + 1] = live[i] end
  for k = #pick, 1, -1 do table.remove(live, pick[k]) end
  return members
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
  if redis.call('ZCARD', q) ~= queued then touched[#touched + 1] = '*' end  -- matches.EVERYONE
  if #touched > 0 then redis.call('SPUBLISH', notify, cjson.encode(touched)) end
  return reply
end
-- luacheck: pop
