-- The service's heartbeat: an API process says the service takes moves, and a gap since the last beat is an outage.
-- KEYS: last (the latest beat, Unix ms), outages (sorted set: "start:end", scored by its end)
-- ARGV: now (ms), the longest gap that is no outage (ms), how long an outage is kept after its end (ms), most kept
-- Returns {recorded (1 when this beat recorded an outage), start, end, start, end, ...}: the outages kept, oldest
-- first.  The last beat only moves forward (a process whose clock is behind records no gap).

local now, after, keep, most = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local last = tonumber(redis.call('GET', KEYS[1]))
local recorded = 0
if last and now - last > after then
  redis.call('ZADD', KEYS[2], now, last .. ':' .. now)
  recorded = 1
end
if not last or now > last then redis.call('SET', KEYS[1], now) end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. (now - keep))
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -most - 1)
local reply = {recorded}
for _, span in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  local start, stop = string.match(span, '^(%d+):(%d+)$')
  reply[#reply + 1] = tonumber(start)
  reply[#reply + 1] = tonumber(stop)
end
return reply
