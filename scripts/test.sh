#!/usr/bin/env bash
# Set up everything and run the whole test suite: ruff, mypy and pytest, against real SQLite and
# a real PostgreSQL server that this script installs (Debian's package) and starts itself.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh dev,bench,sim

if [ -z "${FRACAS_TEST_PG_URL:-}" ]; then
  if [ "$(id -u)" = 0 ] && [ -f scripts/postgres.sh ]; then
    eval "$(bash scripts/postgres.sh start)"
    trap 'bash scripts/postgres.sh stop >/dev/null 2>&1 || true' EXIT
  else
    echo "!!! PostgreSQL tests will be SKIPPED: run as root (the script installs and starts"
    echo "!!! PostgreSQL itself) or set FRACAS_TEST_PG_URL=postgresql+psycopg://user@host:port/db"
  fi
fi

# The browser tests drive Debian's Chromium (never a test tool's own browser download).
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get install -y chromium >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y chromium >/dev/null; }
  else
    echo "!!! /usr/bin/chromium is missing: the browser tests will be SKIPPED (they FAIL under"
    echo "!!! CI=true); run as root, or: sudo apt-get install -y chromium"
  fi
fi

echo "== ruff"
.venv/bin/ruff check src tests benchmarks
echo "== mypy"
.venv/bin/mypy
echo "== pytest"
.venv/bin/pytest -q -p no:cacheprovider "$@"
