-- Claim a game's due outbox entry: moved a lease ahead.
-- KEYS: the outbox shard   ARGV: game id, now, the lease's end
-- Returns 1 when claimed, 0 when not due (or gone).

local due = redis.call('ZSCORE', KEYS[1], ARGV[1])
if due and tonumber(due) <= tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  return 1
end
return 0
