-- A request joins its bucket (ARGV[8] its id, ARGV[9] its JSON, ARGV[10] the bucket's spec).
-- Returns {-1, and the group formed if four who may sit together were waiting}.

prune()
local rec = cjson.decode(ARGV[9])
redis.call('HSET', r, ARGV[8], ARGV[9])
redis.call('ZADD', q, rec.c, ARGV[8])
redis.call('SET', spec, ARGV[10])
local live = waiting()
local reply = {-1}
local pick = four(live)
if pick then reply[2] = group_of(form(take(live, pick))) end
return finished(reply)
