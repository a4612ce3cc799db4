-- A sweep's look at the bucket: groups of four, a group of the waiting past their wait, groups whose
-- creator died. Returns {when to look next (ms, -1: never), then each group formed}.

prune()
local formed, live = {}, waiting()
while #live >= 4 and used < #gids do
  formed[#formed + 1] = form({live[1], live[2], live[3], live[4]})
  live = {unpack(live, 5)}
end
local soonest = nil
for _, m in ipairs(live) do
  if soonest == nil or m[2].d < soonest then soonest = m[2].d end
end
if soonest and soonest <= now and used < #gids then
  formed[#formed + 1] = form(live)
  live, soonest = {}, nil
end
for _, gid in ipairs(redis.call('ZRANGEBYSCORE', forming, '-inf', now, 'LIMIT', 0, 10)) do
  redis.call('ZADD', forming, now + lease, gid)  -- its creator died (or is slow): the caller completes it
  formed[#formed + 1] = gid
end
local nxt = soonest
local first = redis.call('ZRANGE', forming, 0, 0, 'WITHSCORES')
if first[2] and (nxt == nil or tonumber(first[2]) < nxt) then nxt = tonumber(first[2]) end
if #live >= 4 or (soonest and soonest <= now) then nxt = now end  -- out of game ids: look again at once
local reply = {nxt or -1}
for _, gid in ipairs(formed) do reply[#reply + 1] = group_of(gid) end
return finished(reply)
