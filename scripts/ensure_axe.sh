#!/usr/bin/env bash
# The accessibility checks of tests/web inject axe-core (from npm, test-only, pinned in
# tests/web/package.json and its lockfile) into the page from disk: no network while tests run.
# Install it with npm ci when it is missing or not the version package.json pins.
set -euo pipefail
cd "$(dirname "$0")/../tests/web"
pinned=$(sed -n 's/.*"axe-core": *"\([^"]*\)".*/\1/p' package.json)
installed=$(sed -n 's/^  "version": *"\([^"]*\)".*/\1/p' node_modules/axe-core/package.json 2>/dev/null || true)
[ -f node_modules/axe-core/axe.min.js ] && [ "$installed" = "$pinned" ] && exit 0
if ! command -v npm >/dev/null 2>&1; then  # as ensure_chromium.sh: apt-get as root (CI), else sudo
    if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
    echo "installing npm for the browser tests' axe-core (apt-get)" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs npm >/dev/null
fi
echo "installing axe-core for the browser tests (npm ci)" >&2
npm ci --no-audit --no-fund --loglevel=error
