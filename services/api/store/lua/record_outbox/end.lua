-- An abandoned game ended whole at its expiry, if it is still at the version recorded.
-- KEYS: every key of the game (the record first)   ARGV: the version recorded
-- Returns 1 once deleted, 0 when a move came since.

local version = redis.call('HGET', KEYS[1], 'v')
if version and version ~= ARGV[1] then return 0 end  -- changed since the record was built: a move wins
redis.call('DEL', unpack(KEYS))
return 1
