#!/usr/bin/env bash
# Set up fracas and play the bundled example conflict, printing its log and final state.
# Extra arguments go to `fracas run` (e.g. --json, --as alice, --seed 7).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/fracas run "${FRACAS_EXAMPLE:-etherscope-car-chase}" --seed example "$@"
