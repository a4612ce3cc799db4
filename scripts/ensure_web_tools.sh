#!/usr/bin/env bash
# tests/web's npm tools (test-only, pinned in tests/web/package.json and its lockfile): axe-core, which
# the accessibility checks inject into the page from disk (no network while tests run), and ESLint with
# eslint-plugin-compat for the client's JavaScript. Installed with npm ci when one is missing or not the
# version package.json pins.
set -euo pipefail
cd "$(dirname "$0")/../tests/web"
pinned='const pkg = require("./package.json");
for (const [name, version] of Object.entries(pkg.devDependencies)) {
  let installed = null;
  try { installed = require(`./node_modules/${name}/package.json`).version; } catch {}
  if (installed !== version) process.exit(1);
}'
command -v node >/dev/null 2>&1 && node -e "$pinned" && exit 0
if ! command -v npm >/dev/null 2>&1; then  # as ensure_chromium.sh: apt-get as root (CI), else sudo
    if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
    echo "installing npm for the browser tests' tools (apt-get)" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs npm >/dev/null
fi
echo "installing the browser tests' tools: axe-core, ESLint (npm ci)" >&2
npm ci --no-audit --no-fund --loglevel=error
