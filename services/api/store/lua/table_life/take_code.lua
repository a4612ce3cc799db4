-- A rejoin code redeemed once: the seat whose stored digests start with the code's digest, deleted.
-- KEYS: codes   ARGV: the code's digest
-- Returns {seat, stored digests}, or false.

local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  if string.sub(fields[i + 1], 1, #ARGV[1]) == ARGV[1] then
    redis.call('HDEL', KEYS[1], fields[i])
    return {fields[i], fields[i + 1]}
  end
end
return false
