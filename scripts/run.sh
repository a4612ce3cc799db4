#!/usr/bin/env bash
# The run command: set up on a fresh machine, then start the whole stack
# (Redis if none is reachable, the AI worker and the API under gunicorn).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
exec .venv/bin/python -m services.stack "$@"
