-- A due entry of a sorted set of deadlines claimed: moved to the claimer's lease, so exactly one process acts on
-- it and another takes it over once the lease runs out (the claimer died before it acted).  The timers' deadlines
-- and the records outbox's entries are claimed this way.
-- KEYS: the shard (sorted set: game id scored by its deadline, Unix s)
-- ARGV: game id, now (s), the lease's end (s, as the score to store)
-- Returns 1 when this call claimed it, else 0 (not due, or nothing registered).

local due = redis.call('ZSCORE', KEYS[1], ARGV[1])
if due and tonumber(due) <= tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  return 1
end
return 0
