#!/usr/bin/env bash
# The browser tests drive Debian's chromium (Playwright's own browser download is not used).
# Install it when /usr/bin/chromium is missing: apt-get as root (CI runs as root), else sudo.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
echo "installing chromium for the browser tests (apt-get)" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
