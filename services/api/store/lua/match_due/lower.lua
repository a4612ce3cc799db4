-- An enqueue: the bucket's touch count up, its look made due no later than asked.
-- KEYS: due (buckets by when), touch (hash: bucket -> enqueues)   ARGV: bucket, due at (ms)

redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
redis.call('ZADD', KEYS[1], 'LT', ARGV[2], ARGV[1])
return 1
