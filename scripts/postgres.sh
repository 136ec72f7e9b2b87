#!/usr/bin/env bash
# Start a throw-away PostgreSQL for fracas's tests, or stop it.
#
#   eval "$(scripts/postgres.sh)"      # installs (Debian), starts, exports FRACAS_TEST_PG_URL
#   scripts/postgres.sh stop           # stops it and removes the cluster
#
# The cluster lives in a temporary directory owned by `postgres` and listens on 127.0.0.1 only,
# on a high port (FRACAS_PG_PORT, default 54329). PostgreSQL refuses to run as root, so the
# server runs as the `postgres` user (runuser). Needs root for apt-get and runuser.
set -euo pipefail

PORT="${FRACAS_PG_PORT:-54329}"
STATE="${FRACAS_PG_STATE:-/tmp/fracas-pg-${PORT}}"   # holds the data dir and the log
DB="${FRACAS_PG_DB:-fracas_test}"

log() { echo "postgres.sh: $*" >&2; }

pg_bin() {
    local dir
    for dir in /usr/lib/postgresql/*/bin; do
        if [ -x "$dir/pg_ctl" ]; then echo "$dir"; fi
    done | sort -V | tail -n 1
}

as_pg() { runuser -u postgres -- "$@"; }

if [ "${1:-start}" = "stop" ]; then
    BIN="$(pg_bin)"
    if [ -n "$BIN" ] && [ -d "$STATE/data" ]; then
        as_pg "$BIN/pg_ctl" -D "$STATE/data" -m fast -w stop >&2 || true
    fi
    rm -rf "$STATE"
    log "stopped"
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    log "needs root (apt-get, runuser); run the PostgreSQL tests in CI or as root"
    exit 1
fi

BIN="$(pg_bin)"
if [ -z "$BIN" ]; then
    log "installing postgresql from Debian"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y postgresql >&2 || { apt-get update >&2 && apt-get install -y postgresql >&2; }
    BIN="$(pg_bin)"
fi

URL="postgresql+psycopg://postgres@127.0.0.1:${PORT}/${DB}"
if [ -f "$STATE/data/postmaster.pid" ] && as_pg "$BIN/pg_ctl" -D "$STATE/data" status >/dev/null 2>&1; then
    log "already running on port $PORT"
else
    rm -rf "$STATE"
    mkdir -p "$STATE"
    chown postgres:postgres "$STATE"
    chmod 700 "$STATE"
    as_pg "$BIN/initdb" -D "$STATE/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >&2
    as_pg "$BIN/pg_ctl" -D "$STATE/data" -l "$STATE/server.log" -w \
        -o "-c listen_addresses=127.0.0.1 -p ${PORT} -c unix_socket_directories=$STATE -c fsync=on" \
        start >&2
    as_pg "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres "$DB" >&2
    log "running on 127.0.0.1:$PORT (data in $STATE)"
fi
echo "export FRACAS_TEST_PG_URL=${URL}"
