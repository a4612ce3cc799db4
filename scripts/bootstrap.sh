#!/usr/bin/env bash
# Create .venv and install the project with its test extras from PyPI.
# Idempotent: a stamp named after pyproject.toml's hash skips the install
# when nothing changed.
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-python3.11}
command -v "$py" >/dev/null 2>&1 || py=python3
[ -x .venv/bin/python ] || "$py" -m venv .venv
stamp=".venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)"
if [ ! -f "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e ".[test]"
    rm -f .venv/.installed-*
    touch "$stamp"
fi
