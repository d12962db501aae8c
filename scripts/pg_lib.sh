# shellcheck shell=bash
# Functions for a throwaway PostgreSQL cluster, sourced by scripts/with_test_services.sh and
# scripts/cluster.sh (one copy of how we find, run and stop PostgreSQL). The sourcing script
# defines `log MESSAGE` (its own prefix) and runs with `set -euo pipefail`.
#
#   pg_bindir                  the newest /usr/lib/postgresql/*/bin, or nothing
#   pg_available               whether initdb and pg_ctl are there
#   as_root CMD...             CMD as root (itself when root, else sudo), 1 without either
#   pg_use_user                sets PG_USER; as root, creates the system user postgres if
#                              missing, and `as_pg` runs commands as that user
#   as_pg CMD...               CMD as the cluster's owner (after pg_use_user)
#   pg_own PATH...             hands PATH (a directory made if missing) to the cluster's owner
#   free_port                  a TCP port free on 127.0.0.1 right now
#   port_is_free PORT          whether 127.0.0.1:PORT can be bound right now
#   pg_initdb DATA LOG         initdb (trust auth on localhost, UTF-8) unless DATA holds one
#   pg_start DATA LOG SOCKDIR [PORT]
#                              starts the cluster on PORT, or on a free port (a few tries:
#                              another process may take the probed port first); sets PG_PORT
#   pg_stop DATA               pg_ctl stop -m fast (then -m immediate); fine if not running

# shellcheck disable=SC2034 # PG_USER and PG_PORT are read by the sourcing script
PG_USER=''
PG_PORT=''

# shellcheck disable=SC2012 # the paths are Debian's, without odd characters
pg_bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

pg_available() {
    local bin
    bin=$(pg_bindir)
    [ -n "$bin" ] && [ -x "$bin/initdb" ] && [ -x "$bin/pg_ctl" ]
}

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

# As root, the cluster belongs to user postgres (PostgreSQL refuses to run as root).
pg_use_user() {
    if [ "$(id -u)" = 0 ]; then
        if ! id postgres >/dev/null 2>&1; then
            log "creating system user postgres"
            useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
        fi
        PG_USER=postgres
    else
        PG_USER=$(id -un)
    fi
}

as_pg() {
    if [ "$(id -u)" = 0 ]; then
        # From /: the postgres user may not enter the (root-only) directory we run from.
        (cd / && runuser -u postgres -- "$@")
    else
        "$@"
    fi
}

pg_own() {
    local path
    for path in "$@"; do
        [ -e "$path" ] || mkdir -p "$path"
    done
    if [ "$(id -u)" = 0 ]; then
        chown postgres: "$@"
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

port_is_free() {
    python3 - "$1" <<'EOF'
import socket, sys
s = socket.socket()
# as a server binds: a connection of an earlier server in TIME_WAIT does not count
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)
EOF
}

pg_initdb() {
    local data=$1 initlog=$2
    [ -f "$data/PG_VERSION" ] && return 0
    as_pg "$(pg_bindir)/initdb" -D "$data" -U "$PG_USER" --auth=trust -E UTF8 --locale=C.UTF-8 \
        --no-sync >"$initlog" 2>&1 || {
        cat "$initlog" >&2
        return 1
    }
}

# Listens on 127.0.0.1 only, fsync on (the durability tests rely on real commits). A Unix
# socket path is at most 107 bytes: past that, SOCKDIR is left out (TCP only).
pg_start() {
    local data=$1 serverlog=$2 sockdir=$3 wanted=${4:-} tries=5 port out=''
    if [ $((${#sockdir} + 20)) -gt 107 ]; then
        sockdir=''
    fi
    [ -n "$wanted" ] && tries=1
    PG_PORT=''
    for _ in $(seq "$tries"); do
        port=${wanted:-$(free_port)}
        if out=$(as_pg "$(pg_bindir)/pg_ctl" -D "$data" -l "$serverlog" -w -t 60 \
            -o "-p $port -k '$sockdir' -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=200" \
            start 2>&1); then
            PG_PORT=$port
            return 0
        fi
    done
    echo "$out" >&2
    return 1
}

pg_stop() {
    local data=$1 bin
    bin=$(pg_bindir)
    [ -f "$data/postmaster.pid" ] || return 0
    as_pg "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null 2>&1 ||
        as_pg "$bin/pg_ctl" -D "$data" -m immediate -w stop >/dev/null 2>&1 || true
}
