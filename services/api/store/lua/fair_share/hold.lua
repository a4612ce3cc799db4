-- A creator's hold on a new game, if the creator's counts allow it.
-- KEYS: games, computer (the creator's sorted sets of held game ids, by when each hold ends)
-- ARGV: now, hold until, game id, max games, max computer games (0: no cap), '1' for a computer-only game
-- Returns '' once held (or held already), 'games' or 'computer_games' for the cap it would pass.

local games, computer = KEYS[1], KEYS[2]
local now, hold_until, game_id = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local max_games, max_computer, is_computer = tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6] == '1'
if redis.call('ZSCORE', games, game_id) then return '' end  -- held already: a re-sent call
redis.call('ZREMRANGEBYSCORE', games, '-inf', '(' .. now)
if max_games > 0 and redis.call('ZCARD', games) >= max_games then return 'games' end
if is_computer then
  redis.call('ZREMRANGEBYSCORE', computer, '-inf', '(' .. now)
  if max_computer > 0 and redis.call('ZCARD', computer) >= max_computer then return 'computer_games' end
end
local held = {games}
if is_computer then held[2] = computer end
for _, key in ipairs(held) do
  redis.call('ZADD', key, hold_until, game_id)
  local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')[2]  -- the key lives as long as its last hold
  redis.call('EXPIREAT', key, math.ceil(tonumber(last)))
end
return ''
