#!/usr/bin/env bash
# tests/clients runs openapi-typescript (from npm, test-only, pinned in tests/clients/package.json and its
# lockfile) on openapi.yaml. Install it with npm ci when it is missing.
set -euo pipefail
cd "$(dirname "$0")/../tests/clients"
[ -x node_modules/.bin/openapi-typescript ] && exit 0
if ! command -v npm >/dev/null 2>&1; then  # as ensure_web_tools.sh: apt-get as root (CI), else sudo
    if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
    echo "installing npm for the client tests' openapi-typescript (apt-get)" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs npm >/dev/null
fi
echo "installing openapi-typescript for the client tests (npm ci)" >&2
npm ci --no-audit --no-fund --loglevel=error
