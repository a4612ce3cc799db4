-- A game's listing entry synced to its version (never back), the change logged and published.
-- KEYS: items (hash: id -> 'version open item'), open (listed ids by creation), check (due checks),
--       log (stream of changes), seq (their counter), notify (the listing's channel)
-- ARGV: game id, version, '1' if listed, item JSON, created, now, check at, log size, '1' to prune
-- Returns the change told ('table_opened', 'table_changed', 'table_closed') or ''.

local items, open, check, log, seq, notify = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local id, v, listed, item, created = ARGV[1], tonumber(ARGV[2]), ARGV[3] == '1', ARGV[4], ARGV[5]
local now, check_at, log_max, prune = ARGV[6], ARGV[7], ARGV[8], ARGV[9] == '1'
local cur = redis.call('HGET', items, id)
local was_open, cur_item = false, ''
if cur then
  local cv, co, ci = string.match(cur, '^(%d+) ([01]) (.*)$')
  if tonumber(cv) > v then return '' end  -- a newer version's sync landed first
  was_open, cur_item = co == '1', ci
end
local kind = ''
if listed then
  if not was_open then kind = 'table_opened' elseif cur_item ~= item then kind = 'table_changed' end
  redis.call('HSET', items, id, ARGV[2] .. ' 1 ' .. item)
  redis.call('ZADD', open, created, id)
  redis.call('ZADD', check, check_at, id)
else
  if was_open then kind = 'table_closed' end
  redis.call('ZREM', open, id)
  if prune and not was_open then
    redis.call('HDEL', items, id)
    redis.call('ZREM', check, id)
  else
    redis.call('HSET', items, id, ARGV[2] .. ' 0 ')
    redis.call('ZADD', check, check_at, id)
  end
end
if kind ~= '' then
  local n = redis.call('INCR', seq)
  local shown = 'null'
  if listed then shown = item end
  local change = '{"seq":' .. n .. ',"type":"' .. kind .. '","game_id":"' .. id .. '","at_ms":' .. now ..
    ',"table":' .. shown .. '}'
  redis.call('XADD', log, 'MAXLEN', log_max, n .. '-0', 'e', change)
  redis.call('SPUBLISH', notify, change)
end
return kind
