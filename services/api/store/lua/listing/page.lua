-- A page of the listed tables, newest first, after a cursor.
-- KEYS: items, open, seq   ARGV: the cursor's score (or '+inf'), its id ('' for the first page), count
-- Returns {the log's seq, then (id, score, item) for each table}.

local items, open, seq = KEYS[1], KEYS[2], KEYS[3]
local top, after, count = ARGV[1], ARGV[2], tonumber(ARGV[3])
local skip = 0
if after ~= '' then  -- ties on the cursor's score come in descending id order: skip those not after it
  for _, id in ipairs(redis.call('ZREVRANGEBYSCORE', open, top, top)) do
    if id >= after then skip = skip + 1 end
  end
end
local found = redis.call('ZREVRANGEBYSCORE', open, top, '-inf', 'WITHSCORES', 'LIMIT', skip, count)
local reply = {redis.call('GET', seq) or '0'}
for i = 1, #found, 2 do
  reply[#reply + 1] = found[i]
  reply[#reply + 1] = found[i + 1]
  reply[#reply + 1] = redis.call('HGET', items, found[i]) or ''
end
return reply
