-- A request cancelled (ARGV[8] its id), if it is still waiting.
-- Returns the request's JSON, or false when it is gone.

local rec = load(ARGV[8])
if rec == nil then return false end
if rec.s == 'w' then finish(ARGV[8], rec, 'c') end
finished({})
return cjson.encode(rec)
