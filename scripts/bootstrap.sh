#!/usr/bin/env bash
# Create .venv and install the project with its test extras from PyPI, and the
# bot authors' client package (clients/python, editable) that the tests import.
# Idempotent: a stamp named after the two pyproject.toml files' hash skips the
# install when nothing changed.
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-python3.11}
command -v "$py" >/dev/null 2>&1 || py=python3
[ -x .venv/bin/python ] || "$py" -m venv .venv
stamp=".venv/.installed-$(cat pyproject.toml clients/python/pyproject.toml | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e ".[test]" -e ./clients/python
    rm -f .venv/.installed-*
    touch "$stamp"
fi
