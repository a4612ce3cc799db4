-- Claim the due listing checks: each moved a lease ahead.
-- KEYS: check   ARGV: now, the lease's end, how many at most
-- Returns the claimed game ids.

local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], id) end
return due
