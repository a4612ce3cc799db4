-- A claim's lease given back: the game's deadline taken off the timers if it is still the lease (nothing set a new
-- deadline while the claimer acted).
-- KEYS: the game's shard of deadlines
-- ARGV: game id, the lease's end (s, as claim.lua stored it)
-- Returns 1 when it was taken off, else 0.

local due = redis.call('ZSCORE', KEYS[1], ARGV[1])
if due and tonumber(due) == tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 1
end
return 0
