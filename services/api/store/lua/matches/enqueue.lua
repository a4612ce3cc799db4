-- A request joins its bucket (ARGV[8] its id, ARGV[9] its JSON, ARGV[10] the bucket's spec).
-- Returns {-1, and the group formed if four were waiting}.

prune()
local rec = cjson.decode(ARGV[9])
redis.call('HSET', r, ARGV[8], ARGV[9])
redis.call('ZADD', q, rec.c, ARGV[8])
redis.call('SET', spec, ARGV[10])
local live = waiting()
local reply = {-1}
if #live >= 4 then reply[2] = group_of(form({live[1], live[2], live[3], live[4]})) end
return finished(reply)
