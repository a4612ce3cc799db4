-- A request's long poll looks at it (ARGV[8] its id): a waiting one is seen now.
-- Returns the request's JSON, or false when it is gone.

local rec = load(ARGV[8])
if rec == nil then return false end
if rec.s == 'w' then
  rec.seen = now
  save(ARGV[8], rec)
end
return cjson.encode(rec)
