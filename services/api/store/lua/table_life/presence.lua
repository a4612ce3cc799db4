-- A seat's presence lease held or renewed (or only the lapsed dropped), a change published.
-- KEYS: the game's presence (seat -> lease end), notify (the game's shard channel)
-- ARGV: now (ms), seat ('' for none), lease end (ms), how long a lapsed lease is kept (ms)
-- Returns the seats' connected flags, 'true,false,...'.

local key, notify = KEYS[1], KEYS[2]
local now, seat, hold_until, lapsed_kept = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local function connected()
  local flags = {'false', 'false', 'false', 'false'}
  for _, member in ipairs(redis.call('ZRANGE', key, 0, -1)) do flags[tonumber(member) + 1] = 'true' end
  return table.concat(flags, ',')
end
local before = connected()  -- as last told: lapsed leases not dropped yet count
redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
if seat ~= '' then redis.call('ZADD', key, 'GT', hold_until, seat) end
local after = connected()
local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')[2]
if last then redis.call('PEXPIREAT', key, last + lapsed_kept) end  -- kept a while: its lapse is told first
if after ~= before then redis.call('SPUBLISH', notify, '{"notice":"presence","seats":[' .. after .. ']}') end
return after
