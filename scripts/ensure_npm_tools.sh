#!/usr/bin/env bash
# The tests' npm tools (test-only, each folder's devDependencies pinned in its package.json and lockfile):
# tests/web (axe-core, injected into pages from disk; ESLint with eslint-plugin-compat) and tests/clients
# (openapi-typescript). For each folder given, npm ci when a pinned tool is missing or at another version;
# npm itself from apt-get when missing (as root, as CI runs; else sudo).
# Usage: scripts/ensure_npm_tools.sh tests/web tests/clients
set -euo pipefail
cd "$(dirname "$0")/.."
pinned='const pkg = require(`${process.cwd()}/package.json`);
for (const [name, version] of Object.entries(pkg.devDependencies)) {
  let installed = null;
  try { installed = require(`${process.cwd()}/node_modules/${name}/package.json`).version; } catch {}
  if (installed !== version) process.exit(1);
}'
for folder in "$@"; do
    (
        cd "$folder"
        command -v node >/dev/null 2>&1 && node -e "$pinned" && exit 0
        if ! command -v npm >/dev/null 2>&1; then
            if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
            echo "installing npm for the tests' tools in $folder (apt-get)" >&2
            $sudo apt-get update -qq
            DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs npm >/dev/null
        fi
        echo "installing the tests' tools in $folder (npm ci)" >&2
        npm ci --no-audit --no-fund --loglevel=error
    )
done
