#!/usr/bin/env bash
# The test command: set everything up on a fresh machine, then run pytest.
# Extra arguments go to pytest (e.g. scripts/test.sh tests/engine -x; -n 0 runs in one process).
# The tests run in three pytest-xdist workers per two cores (at most 6), a test module's tests in one worker:
# a third of a worker's time is spent waiting (servers starting, pages, streams, clocks), so a third worker
# per two cores fills it (CONTRIBUTING.md has the figures).
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
workers=$(( $(nproc) * 3 / 2 ))
workers=$(( workers < 1 ? 1 : workers > 6 ? 6 : workers ))
exec .venv/bin/python -m pytest --numprocesses "$workers" --dist loadfile "$@"
