-- A quick message kept and published, within its seat's rate.
-- KEYS: messages (list), said (the seat's recent messages), notify, game
-- ARGV: ttl (s), now (ms), entry JSON, how many kept, gap (ms), most in the window, window (ms)
-- Returns 0 once posted, else the ms to wait.

local messages, said, notify, game = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local ttl, now, entry, keep = ARGV[1], tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
local gap, most, window = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
redis.call('ZREMRANGEBYSCORE', said, '-inf', now - window)
local last = redis.call('ZRANGE', said, -1, -1, 'WITHSCORES')[2]
if last and tonumber(last) + gap > now then return tonumber(last) + gap - now end
if redis.call('ZCARD', said) >= most then
  return tonumber(redis.call('ZRANGE', said, 0, 0, 'WITHSCORES')[2]) + window - now
end
redis.call('ZADD', said, now, now)
redis.call('PEXPIRE', said, window)
redis.call('RPUSH', messages, entry)
redis.call('LTRIM', messages, -keep, -1)
with_the_game(messages, game, ttl)
redis.call('SPUBLISH', notify, '{"notice":"message",' .. string.sub(entry, 2))
return 0
