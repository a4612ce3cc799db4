-- A finished game's record is written: its keys get their expiry back, if it is still at that version.
-- KEYS: game, events, then the seats' idempotency keys   ARGV: the version recorded, the TTL (s)
-- Returns 1 when applied, 0 when the game is gone or changed.

local version = redis.call('HGET', KEYS[1], 'v')
if version ~= ARGV[1] then return 0 end  -- gone, or changed since the record was built
local ttl = tonumber(ARGV[2])
redis.call('EXPIRE', KEYS[1], ttl)
redis.call('EXPIRE', KEYS[2], ttl)
for i = 3, #KEYS do redis.call('EXPIRE', KEYS[i], ttl, 'LT') end  -- no seat's entry outlives the game
return 1
