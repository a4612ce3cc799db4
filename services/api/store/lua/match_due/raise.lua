-- After a look: the bucket's next look set (or dropped), unless an enqueue touched it since.
-- KEYS: due, touch   ARGV: bucket, next look (ms; '' for none), the touch count the sweep read
-- Returns 1 when applied, 0 when an enqueue came after the look.

if (redis.call('HGET', KEYS[2], ARGV[1]) or '') ~= ARGV[3] then return 0 end  -- an enqueue touched it since
if ARGV[2] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
end
return 1
