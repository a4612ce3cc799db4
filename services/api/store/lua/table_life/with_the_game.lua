-- A table-life key lives as long as its game: the game hash's time left, or the game TTL (s) without one.

local function with_the_game(key, game, ttl)
  local left = redis.call('PTTL', game)
  if left > 0 then redis.call('PEXPIRE', key, left) else redis.call('EXPIRE', key, ttl) end
end
