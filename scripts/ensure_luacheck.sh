#!/usr/bin/env bash
# The store's Lua scripts (services/api/store/lua) are checked by luacheck (tests/api/store/test_lua_scripts.py):
# Debian's lua-check, installed when missing (apt-get as root, as CI runs, else sudo).
set -euo pipefail
command -v luacheck >/dev/null && exit 0
if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
echo "installing luacheck for the store's Lua scripts (apt-get)" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq lua-check >/dev/null
