-- A sweep's look at the bucket: groups of four, a group around each request past its wait, groups whose
-- creator died. Returns {when to look next (ms, -1: never), then each group formed}.

prune()
local formed, live = {}, waiting()
while used < #gids do
  local pick = four(live)
  if not pick then break end
  formed[#formed + 1] = form(take(live, pick))
end
while used < #gids and #live > 0 do
  local due = 1
  for i, m in ipairs(live) do
    if m[2].d < live[due][2].d then due = i end
  end
  if live[due][2].d > now then break end
  formed[#formed + 1] = form(take(live, table_from(live, due)))
end
local soonest = nil
for _, m in ipairs(live) do
  if soonest == nil or m[2].d < soonest then soonest = m[2].d end
end
for _, gid in ipairs(redis.call('ZRANGEBYSCORE', forming, '-inf', now, 'LIMIT', 0, 10)) do
  redis.call('ZADD', forming, now + lease, gid)  -- its creator died (or is slow): the caller completes it
  formed[#formed + 1] = gid
end
local nxt = soonest
local first = redis.call('ZRANGE', forming, 0, 0, 'WITHSCORES')
if first[2] and (nxt == nil or tonumber(first[2]) < nxt) then nxt = tonumber(first[2]) end
if four(live) or (soonest and soonest <= now) then nxt = now end  -- out of game ids: look again at once
local reply = {nxt or -1}
for _, gid in ipairs(formed) do reply[#reply + 1] = group_of(gid) end
return finished(reply)
