-- A request's long poll looks at it (ARGV[8] its id): a waiting one is seen now.
-- Returns {the request's JSON, the people found for it, the level of the computers that would fill the free
-- seats} (matches.MatchLook: the waiting requests, at most three, and the longest-waiting one's level while it
-- waits; its group's size and first member's level while the group forms; 0 and false once it ended), or false
-- when it is gone.

local rec = load(ARGV[8])
if rec == nil then return false end
local found, level = 0, false
if rec.s == 'w' then
  rec.seen = now
  save(ARGV[8], rec)
  found = math.min(queued, 3)
  local first = load(redis.call('ZRANGE', q, 0, 0)[1] or ARGV[8]) or rec
  level = first.lvl
elseif rec.s == 'f' then
  local group = redis.call('HGET', groups, rec.g)
  if group then
    local members = cjson.decode(group).m
    local first = load(members[1]) or rec
    found, level = #members, first.lvl
  end
end
return {cjson.encode(rec), found, level}
