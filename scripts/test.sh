#!/usr/bin/env bash
# The test command: set everything up on a fresh machine, then run pytest.
# Extra arguments go to pytest (e.g. scripts/test.sh tests/engine -x; -n 0 runs in one process).
# The tests run in one pytest-xdist worker per core (at most 4), a test module's tests in one worker.
# Starts a PostgreSQL (scripts/ensure_postgres.sh) when none answers on 127.0.0.1:5432.
# Installs Debian's chromium for the browser tests (tests/web) and the tests' pinned npm tools when missing.
# Installs Debian's lua-check for the store's Lua scripts when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/ensure_redis.sh
bash scripts/ensure_postgres.sh
bash scripts/ensure_chromium.sh
bash scripts/ensure_luacheck.sh
bash scripts/ensure_npm_tools.sh tests/web tests/clients
.venv/bin/ruff check .
exec .venv/bin/python -m pytest --numprocesses auto --maxprocesses 4 --dist loadfile "$@"
