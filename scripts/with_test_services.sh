#!/usr/bin/env bash
# Runs a command (the checks of `./run test`) with what the browser and database tests need:
# installs Debian's Chromium (browser tests) and PostgreSQL (the PostgreSQL-path tests) when
# missing and this user may (root or sudo), starts a throwaway PostgreSQL cluster on a free
# localhost port, exports PYRAMIDS_TEST_POSTGRES, runs the command, and stops the cluster on
# exit. Without root the install is skipped with a warning, and the tests that need what is
# missing skip (or fail, when CI is set). Safe to run twice on one machine and beside a
# PostgreSQL that is already running.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { echo "ci: $*" >&2; }

# Root runs apt-get itself; anyone else needs sudo (CI runs as root).
as_root() {
    if [ "$(id -u)" = 0 ]; then
        "$@"
    elif command -v sudo >/dev/null; then
        sudo "$@"
    else
        log "warning: need root (or sudo) to run: $*"
        return 1
    fi
}

pg_bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium fonts-liberation fonts-dejavu-core)
[ -n "$(pg_bindir)" ] && [ -x "$(pg_bindir)/initdb" ] || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]}"
    if ! { as_root apt-get update -qq &&
        as_root env DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -qq --no-install-recommends "${missing[@]}"; }; then
        log "warning: could not install ${missing[*]}; the tests that need them will skip"
    fi
fi
if [ -z "$(pg_bindir)" ] || [ ! -x "$(pg_bindir)/initdb" ]; then
    log "warning: no PostgreSQL server here; the PostgreSQL-path tests will skip"
    exec "$@"
fi

# A throwaway cluster: its own data directory and socket directory, a free port, trust
# authentication on localhost only, fsync on (the durability tests rely on real commits).
PG_BIN=$(pg_bindir)
PG_TMP=$(mktemp -d /tmp/pyramids-ci-pg.XXXXXX)
PG_DATA=$PG_TMP/data
PG_PORT=
# As root, the cluster belongs to user postgres (PostgreSQL refuses to run as root).
if [ "$(id -u)" = 0 ]; then
    if ! id postgres >/dev/null 2>&1; then
        log "creating system user postgres"
        useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
    fi
    chown postgres: "$PG_TMP"
    # From /: the postgres user may not enter the (root-only) directory we run from.
    as_pg() { (cd / && runuser -u postgres -- "$@"); }
    PG_USER=postgres
else
    as_pg() { "$@"; }
    PG_USER=$(id -un)
fi

stop_pg() {
    local status=$?
    if [ -f "$PG_DATA/postmaster.pid" ]; then
        as_pg "$PG_BIN/pg_ctl" -D "$PG_DATA" -m fast -w stop >/dev/null 2>&1 ||
            as_pg "$PG_BIN/pg_ctl" -D "$PG_DATA" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$PG_TMP"
    exit "$status"
}
trap stop_pg EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

as_pg "$PG_BIN/initdb" -D "$PG_DATA" -U "$PG_USER" --auth=trust -E UTF8 --locale=C.UTF-8 \
    --no-sync >"$PG_TMP/initdb.log" 2>&1 || {
    cat "$PG_TMP/initdb.log" >&2
    exit 1
}
# Another process may take the port between our probe and the server's bind: try a few.
for _ in 1 2 3 4 5; do
    PG_PORT=$(free_port)
    if as_pg "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$PG_TMP/server.log" -w -t 60 \
        -o "-p $PG_PORT -k $PG_TMP -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=200" \
        start >/dev/null; then
        break
    fi
    PG_PORT=
done
if [ -z "$PG_PORT" ]; then
    log "PostgreSQL did not start; its log:"
    cat "$PG_TMP/server.log" >&2 || true
    exit 1
fi
"$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" pyramids_test
export PYRAMIDS_TEST_POSTGRES="postgresql://$PG_USER@127.0.0.1:$PG_PORT/pyramids_test"
log "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') at $PYRAMIDS_TEST_POSTGRES"

"$@"
