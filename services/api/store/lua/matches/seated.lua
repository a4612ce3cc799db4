-- A group's game is made (ARGV[8] the group id): its members seated, but those named in ARGV[9] (a JSON list of
-- request ids: their players deleted themselves, so the game was made without them) cancelled.
-- Returns (request id, request JSON) for each member ended.

local raw = redis.call('HGET', groups, ARGV[8])
if not raw then return {} end
local dropped = {}
for _, id in ipairs(cjson.decode(ARGV[9] or '[]')) do dropped[id] = true end
local reply = {}
for _, id in ipairs(cjson.decode(raw).m) do
  local rec = load(id)
  if rec and rec.s == 'f' and rec.g == ARGV[8] then
    if dropped[id] then rec.s = 'c' else rec.s = 'S' end
    rec.e = now
    save(id, rec)
    redis.call('ZADD', ended, now + keep, id)
    touched[#touched + 1] = id
    reply[#reply + 1] = id
    reply[#reply + 1] = cjson.encode(rec)
  end
end
redis.call('HDEL', groups, ARGV[8])
redis.call('ZREM', forming, ARGV[8])
return finished(reply)
