-- The buckets due now, with the touch count each sweep reads.
-- KEYS: due, touch   ARGV: now (ms), how many at most
-- Returns (bucket, touch count) pairs.

local reply = {}
for _, bucket in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))) do
  reply[#reply + 1] = bucket
  reply[#reply + 1] = redis.call('HGET', KEYS[2], bucket) or ''
end
return reply
