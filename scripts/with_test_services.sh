#!/usr/bin/env bash
# Runs a command (the checks of `./run test`) with what the browser, database and cluster
# tests need: installs Debian's Chromium (browser tests), PostgreSQL (the PostgreSQL-path
# tests) and HAProxy (the cluster tests, scripts/cluster.sh) when missing and this user may
# (root or sudo), starts a throwaway PostgreSQL cluster on a free localhost port, exports
# PYRAMIDS_TEST_POSTGRES, runs the command, and stops the cluster on exit. Without root the
# install is skipped with a warning, and the tests that need what is missing skip (or fail,
# when CI is set). Safe to run twice on one machine and beside a PostgreSQL that is already
# running.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { echo "ci: $*" >&2; }
# shellcheck source=scripts/pg_lib.sh
. scripts/pg_lib.sh

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium fonts-liberation fonts-dejavu-core)
pg_available || missing+=(postgresql)
[ -x /usr/sbin/haproxy ] || missing+=(haproxy)
if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]}"
    if ! { as_root apt-get update -qq &&
        as_root env DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -qq --no-install-recommends "${missing[@]}"; }; then
        log "warning: could not install ${missing[*]}; the tests that need them will skip"
    fi
fi
if ! pg_available; then
    log "warning: no PostgreSQL server here; the PostgreSQL-path tests will skip"
    exec "$@"
fi

# A throwaway cluster: its own data directory and socket directory, a free port, trust
# authentication on localhost only.
PG_BIN=$(pg_bindir)
PG_TMP=$(mktemp -d /tmp/pyramids-ci-pg.XXXXXX)
PG_DATA=$PG_TMP/data
pg_use_user
pg_own "$PG_TMP"

stop_pg() {
    local status=$?
    pg_stop "$PG_DATA"
    rm -rf "$PG_TMP"
    exit "$status"
}
trap stop_pg EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

pg_initdb "$PG_DATA" "$PG_TMP/initdb.log"
if ! pg_start "$PG_DATA" "$PG_TMP/server.log" "$PG_TMP"; then
    log "PostgreSQL did not start; its log:"
    cat "$PG_TMP/server.log" >&2 || true
    exit 1
fi
"$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" pyramids_test
export PYRAMIDS_TEST_POSTGRES="postgresql://$PG_USER@127.0.0.1:$PG_PORT/pyramids_test"
log "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') at $PYRAMIDS_TEST_POSTGRES"

"$@"
