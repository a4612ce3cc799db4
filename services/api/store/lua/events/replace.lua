-- An event's document written over the version it was read at (a compare-and-set), or a new one made.
-- KEYS: the event's hash (fields v, doc)   ARGV: the version it was read at (0: a new event), the document, TTL (s)
-- Returns 1 when written, 0 when the stored version is another (or, for a new event, the id is taken).

local read_at, doc, ttl = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3])
local stored = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if stored ~= read_at then return 0 end
redis.call('HSET', KEYS[1], 'v', read_at + 1, 'doc', doc)
redis.call('EXPIRE', KEYS[1], ttl)
return 1
