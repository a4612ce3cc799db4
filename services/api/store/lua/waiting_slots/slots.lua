-- A waiting request's slot taken (or renewed) in each of its client's sets, if every cap allows.
-- KEYS: the client's sets (by address, by token)   ARGV: now, lease end (s), slot id, then each key's cap
-- Returns 0 once held, else the index of the key whose cap it would pass.

local now, hold_until, slot = ARGV[1], tonumber(ARGV[2]), ARGV[3]
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. now)  -- lapsed leases: their holders died
  local cap = tonumber(ARGV[3 + i])  -- 0: no check (a renewal)
  if cap > 0 and not redis.call('ZSCORE', key, slot) and redis.call('ZCARD', key) >= cap then return i end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, hold_until, slot)
  local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')[2]  -- the key lives as long as its last lease
  redis.call('PEXPIREAT', key, math.ceil(tonumber(last) * 1000))
end
return 0
