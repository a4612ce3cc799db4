-- Pause a computer-only game nobody watches.
-- KEYS: watched, paused   ARGV: the pause mark's TTL (s)
-- Returns 1 when it is watched (not paused), 0 once paused.

if redis.call('EXISTS', KEYS[1]) == 1 then return 1 end
redis.call('SET', KEYS[2], '1', 'EX', ARGV[1])
return 0
