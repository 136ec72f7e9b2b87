#!/usr/bin/env bash
# Create .venv (if missing) and install fracas into it; extra arguments name pip extras.
# Needs nothing but Python 3.11+ and the package registries.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
extras=${1:-}
stamp=".venv/.fracas-installed${extras:+-$extras}"
if [ -z "$extras" ]; then  # an install with extras holds the plain one
  for done in .venv/.fracas-installed*; do
    if [ -f "$done" ] && [ ! pyproject.toml -nt "$done" ]; then stamp=$done; fi
  done
fi
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  .venv/bin/python -m pip install -q -e ".${extras:+[$extras]}"
  touch "$stamp"
fi
