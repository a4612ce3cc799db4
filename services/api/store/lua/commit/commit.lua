-- A game's change written whole: compare-and-set on its version, the events appended and published.
-- KEYS: game (hash: v, meta, state, rounds), events (stream), idem (the seat's idempotency entry),
--       notify (the game's shard channel), then the seats' idempotency keys (their TTL follows the game's)
-- ARGV: expected version ('' for a new game), version, meta, state, ttl (-1 PERSIST, 0 keep), idem entry,
--       idem ttl, rounds ('' unchanged), trim below (a stream id, or ''), then (stream id, event JSON) pairs
-- Returns {1, version} once written, {0, the stored version} when another writer got in first.

local game, events, idem, notify = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local expected, version, meta, state = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local ttl, idem_entry, idem_ttl = tonumber(ARGV[5]), ARGV[6], tonumber(ARGV[7])
local rounds, trim_below = ARGV[8], ARGV[9]
local FIRST_EVENT = 10  -- then (stream id, event JSON) pairs to the end of ARGV

local cur = redis.call('HGET', game, 'v')
if expected == '' then
  if cur then return {0, cur} end
elseif cur ~= expected then
  if cur then return {0, cur} end
  return {0, ''}
end
if rounds ~= '' then
  redis.call('HSET', game, 'v', version, 'meta', meta, 'state', state, 'rounds', rounds)
else
  redis.call('HSET', game, 'v', version, 'meta', meta, 'state', state)
end
if ttl > 0 then redis.call('EXPIRE', game, ttl) elseif ttl < 0 then redis.call('PERSIST', game) end
local notice = {}  -- the new events, as one JSON array, to the API processes' fan-out hubs
for i = FIRST_EVENT, #ARGV, 2 do
  redis.call('XADD', events, ARGV[i], 'e', ARGV[i + 1])
  notice[#notice + 1] = ARGV[i + 1]
end
if trim_below ~= '' then redis.call('XTRIM', events, 'MINID', trim_below) end  -- a new round: older rounds go
if ttl > 0 then  -- a no-op while the stream does not exist
  redis.call('EXPIRE', events, ttl)
elseif ttl < 0 then
  redis.call('PERSIST', events)
end
if #notice > 0 then redis.call('SPUBLISH', notify, '[' .. table.concat(notice, ',') .. ']') end
if idem_entry ~= '' then redis.call('SET', idem, idem_entry, 'EX', idem_ttl) end
for i = 5, #KEYS do redis.call('EXPIRE', KEYS[i], ttl, 'LT') end  -- game over: no seat's entry outlives it
return {1, version}
