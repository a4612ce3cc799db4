-- luacheck's settings for the store's scripts (tests/api/store/test_lua_scripts.py runs it on each script as sent):
-- Redis runs them on Lua 5.1 with these globals.
std = "lua51"
read_globals = { "KEYS", "ARGV", "redis", "cjson" }
