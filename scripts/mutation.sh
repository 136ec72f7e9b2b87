#!/usr/bin/env bash
# Mutation testing: how many deliberate small bugs in the rule modules the tests catch.
# bash scripts/mutation.sh --help; the driver is tests/mutation/driver.py.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh dev,bench >/dev/null
exec .venv/bin/python -m tests.mutation.driver "$@"
