-- A read of a computer-only game: watched for a while, its pause lifted.
-- KEYS: watched, paused (the game's marks)   ARGV: how long it stays watched (ms)
-- Returns 1 when it was paused (its next AI turn goes out now), else 0.

redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
local paused = redis.call('GET', KEYS[2])
if paused then redis.call('DEL', KEYS[2]) return 1 end
return 0
