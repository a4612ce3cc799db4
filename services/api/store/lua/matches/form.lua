-- A sweep's look at the bucket: groups of four, a group around each request past its wait, groups whose
-- creator died. Returns {when to look next (ms, -1: never): the soonest deadline, lease's end, or time a waiting
-- request would go idle; then each group formed}.

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
local soonest, idle_at = nil, nil
for _, m in ipairs(live) do
  if soonest == nil or m[2].d < soonest then soonest = m[2].d end
  if idle_at == nil or m[2].seen + idle + 1 < idle_at then idle_at = m[2].seen + idle + 1 end
end
for _, gid in ipairs(redis.call('ZRANGEBYSCORE', forming, '-inf', now, 'LIMIT', 0, 10)) do
  redis.call('ZADD', forming, now + lease, gid)  -- its creator died (or is slow): the caller completes it
  formed[#formed + 1] = gid
end
local nxt = soonest
local first = redis.call('ZRANGE', forming, 0, 0, 'WITHSCORES')
if first[2] and (nxt == nil or tonumber(first[2]) < nxt) then nxt = tonumber(first[2]) end
if idle_at and (nxt == nil or idle_at < nxt) then nxt = idle_at end  -- a person gone stops counting as found
if four(live) or (soonest and soonest <= now) then nxt = now end  -- out of game ids: look again at once
local reply = {nxt or -1}
for _, gid in ipairs(formed) do reply[#reply + 1] = group_of(gid) end
return finished(reply)
