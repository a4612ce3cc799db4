-- What every quick-match step shares: a bucket's keys and arguments, and its helpers.
-- KEYS: r (hash: request id -> JSON), q (waiting ids by arrival), forming (groups by lease end),
--       groups (hash: group id -> members), spec (the bucket's rules and clock), ended (ended ids by
--       when they go), notify (the bucket's channel)
-- ARGV: now, lease, idle, keep (ms), ttl (s), two fresh game ids; each step's own from ARGV[8]

-- luacheck: push ignore 211 (each step calls only some of these helpers)
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
-- luacheck: pop
