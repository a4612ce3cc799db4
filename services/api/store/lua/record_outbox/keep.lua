-- Hold a game whose record is not written yet: every key lives at least this long.
-- KEYS: the game's keys   ARGV: the TTL (s) each keeps at least

for i = 1, #KEYS do
  local left = redis.call('TTL', KEYS[i])
  if left >= 0 and left < tonumber(ARGV[1]) then redis.call('EXPIRE', KEYS[i], ARGV[1]) end
end
return 1
