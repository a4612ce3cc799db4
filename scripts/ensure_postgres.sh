#!/usr/bin/env bash
# Make sure a PostgreSQL answers on 127.0.0.1:5432 (TEST_POSTGRES_URL; user postgres, trusted) for the records tests:
# if none does, install Debian's postgresql when it is missing (apt-get as root, else sudo) and start a
# server of the tests' own (initdb with trust auth, data in SPADES_POSTGRES_DIR, default /tmp/spades-postgres,
# loopback only).
# The tests create a throwaway database on it per session (tests/conftest.py).
set -euo pipefail
cd "$(dirname "$0")/.."
url="${TEST_POSTGRES_URL:-postgresql://postgres@127.0.0.1:5432/postgres}"
ping() { .venv/bin/python -c "import sys, testkit.postgres as p; sys.exit(0 if p.answers('$url') else 1)" 2>/dev/null; }
ping && exit 0
if ! ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
    echo "installing postgresql for the records tests (apt-get)" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
    # the package may start its own cluster on 5432 (password auth): the one just installed gives way to the tests'
    for cluster in /etc/postgresql/*/main; do
        [ -d "$cluster" ] && $sudo pg_ctlcluster "$(basename "$(dirname "$cluster")")" main stop 2>/dev/null || true
    done
fi
data="${SPADES_POSTGRES_DIR:-/tmp/spades-postgres}"
.venv/bin/python - "$data" "$url" <<'PY'
import sys
from pathlib import Path
from urllib.parse import urlsplit

from testkit.postgres import PrivatePostgres

server = PrivatePostgres(urlsplit(sys.argv[2]).port or 5432, sys.argv[1])
if not (Path(sys.argv[1]) / "PG_VERSION").exists():
    server.init()
server.start()
PY
for _ in $(seq 50); do ping && exit 0; sleep 0.1; done
echo "no PostgreSQL on 127.0.0.1:5432" >&2
exit 1
