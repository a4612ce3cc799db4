-- One change to an arena, written over the version it was read at (a compare-and-set).
-- KEYS: meta (hash: v, puts), entrants (hash), standings (sorted set, scored −score), pool (sorted set, scored by
--       arrival), games (hash), games' order (sorted set, scored by when each was put in)
-- ARGV: the version it was read at, TTL (s), the change as JSON: {entrants = {id = doc}, standings = {id = score},
--       pool_add = {id = arrival}, pool_remove = [id], games_add = {id = doc}, games_remove = [id]}
-- Returns 1 when written, 0 when the stored version is another.

local meta, entrants, standings, pool, games, order = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local read_at, ttl = tonumber(ARGV[1]), tonumber(ARGV[2])
if tonumber(redis.call('HGET', meta, 'v') or '0') ~= read_at then return 0 end
local change = cjson.decode(ARGV[3])
redis.call('HSET', meta, 'v', read_at + 1)
for id, doc in pairs(change.entrants) do redis.call('HSET', entrants, id, doc) end
for id, score in pairs(change.standings) do redis.call('ZADD', standings, -score, id) end
for _, id in ipairs(change.pool_remove) do redis.call('ZREM', pool, id) end
for id, arrival in pairs(change.pool_add) do redis.call('ZADD', pool, arrival, id) end
for _, id in ipairs(change.games_remove) do
  redis.call('HDEL', games, id)
  redis.call('ZREM', order, id)
end
for id, doc in pairs(change.games_add) do
  redis.call('HSET', games, id, doc)
  redis.call('ZADD', order, redis.call('HINCRBY', meta, 'puts', 1), id)
end
for _, key in ipairs(KEYS) do redis.call('EXPIRE', key, ttl) end
return 1
