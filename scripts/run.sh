#!/usr/bin/env bash
# Set up fracas and open the table in a browser: start `fracas serve` with a table that holds a
# bundled example conflict (made on the first run) and print the GM's link.
#   bash scripts/run.sh              # the table at http://127.0.0.1:8000 (FRACAS_PORT to change)
#   bash scripts/run.sh --terminal   # no table: print the example's log and final state (fracas run)
# Extra arguments after --terminal go to `fracas run` (e.g. --json, --as alice, --seed 7).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
example=${FRACAS_EXAMPLE:-etherscope-car-chase}
if [ "${1:-}" = "--terminal" ]; then
  shift
  exec .venv/bin/fracas run "$example" --seed example "$@"
fi
port=${FRACAS_PORT:-8000}
db=${FRACAS_DB:-sqlite:///$PWD/.venv/table.db}
# the GM's secret link of the example table (only you read it), one per store and example; it
# is kept without its address so that another FRACAS_PORT finds the same table
key=$(printf '%s|%s' "$db" "$example" | cksum | cut -d' ' -f1)
link_file=.venv/table-gm-link-$key
case "$db" in  # a store that was deleted takes its table with it
  sqlite:///*) [ -e "${db#sqlite:///}" ] || rm -f "$link_file" ;;
esac
if [ ! -s "$link_file" ]; then
  made=$(.venv/bin/fracas table new "Example table" --url "http://127.0.0.1:$port" --db "$db" 2>/dev/null)
  table=$(printf '%s\n' "$made" | sed -n 1p)
  .venv/bin/fracas new "$example" --campaign "$table" --db "$db" >/dev/null 2>&1
  (umask 077 && printf '%s\n' "$made" | sed -n 2p | sed 's|^http://127.0.0.1:[0-9]*||' >"$link_file")
fi
echo "The GM's link (keep it secret; open it in your browser): http://127.0.0.1:$port$(cat "$link_file")"
exec .venv/bin/fracas serve --port "$port" --db "$db"
