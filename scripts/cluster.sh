#!/usr/bin/env bash
# Runs the game server as a cluster on this machine, all on 127.0.0.1 (docs/DEPLOY.md):
# a throwaway PostgreSQL cluster, N `pyramids serve` instances sharing its database, and
# HAProxy in front of them.
#
#   scripts/cluster.sh start DIR PORT    start everything; the balancer on 127.0.0.1:PORT
#                                        (0: a free port); prints its address
#   scripts/cluster.sh stop DIR          end everything started in DIR (twice is fine)
#   scripts/cluster.sh kill DIR NAME     SIGKILL one process (i1, i2…, postgres, balancer)
#   scripts/cluster.sh restart DIR NAME  start it again on its port; wait until it serves
#   scripts/cluster.sh status DIR        each process and whether it runs (exit 3: not all)
#
# Environment: INSTANCES (default 3: i1..iN), PYTHON (default the repository's
# .venv/bin/python), PYRAMIDS_CLUSTER_ARGS (more `serve` arguments, split on spaces),
# CLUSTER_START_TIMEOUT / CLUSTER_STOP_TIMEOUT (seconds, default 60 / 15). The rest of the
# environment reaches the instances (tests set PYRAMIDS_EXEMPT and the like).
#
# DIR holds: pg/data (the database cluster; kept by stop, so a later start finds the same
# tables), pids/NAME.pid, logs/NAME.log, haproxy.cfg, haproxy.sock (the balancer's admin
# socket) and cluster.env (DB_URL, PORT, INSTANCES, INSTANCE_iK_PORT). Exit status 2: a
# refusal (DIR already runs a cluster, PORT taken, HAProxy or PostgreSQL missing, a bad
# argument); 1: something failed to start (what was started is stopped again; the message
# names the log to read).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
log() { echo "cluster: $*" >&2; }
refuse() {
    log "$*"
    exit 2
}
# shellcheck source=scripts/pg_lib.sh
. "$REPO/scripts/pg_lib.sh"

HAPROXY=${HAPROXY:-/usr/sbin/haproxy}
PY=${PYTHON:-$REPO/.venv/bin/python}
# absolute (some commands run from DIR), its last link kept (a venv's python is a link)
case $PY in
/*) ;;
*/*) PY=$PWD/$PY ;;
*) PY=$(command -v "$PY" || echo "$PY") ;;
esac
START_TIMEOUT=${CLUSTER_START_TIMEOUT:-60}
STOP_TIMEOUT=${CLUSTER_STOP_TIMEOUT:-15}
BACKEND=instances
TABLES=tables

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//' >&2
    exit 2
}

# --- processes -------------------------------------------------------------------------------

pid_file() { echo "$DIR/pids/$1.pid"; }
log_file() { echo "$DIR/logs/$1.log"; }
read_pid() { [ -f "$(pid_file "$1")" ] && cat "$(pid_file "$1")"; }
is_instance() { [[ $1 =~ ^i[0-9]+$ ]]; }

# What a process of that name runs: a recycled pid that runs something else is not ours.
command_of() {
    case $1 in
    postgres) echo postgres ;;
    balancer) echo haproxy ;;
    *) echo pyramids.cli.main ;;
    esac
}

# Whether PID is alive (a zombie is not: the instances are reparented once start exits, and
# not every init reaps them at once) and runs what NAME runs. A process that is exiting but
# not yet a zombie is alive: its memory, and with it its command line, goes first, and it may
# hold its port a little longer (flags PF_EXITING 0x4, and not PF_KTHREAD 0x200000: a kernel
# thread has no command line either, and may have taken a stale pid file's pid).
is_alive() {
    local name=$1 pid=$2 stat state flags cmdline
    kill -0 "$pid" 2>/dev/null || return 1
    [ -r "/proc/$pid/stat" ] || return 0
    stat=$(sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null) || return 1
    read -r state _ _ _ _ _ flags _ <<<"$stat"
    [ -n "$state" ] && [ "$state" != Z ] || return 1
    cmdline=$({ tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null) || return 1
    if [ -z "$cmdline" ]; then
        ((flags & 0x4)) && ! ((flags & 0x200000))
        return
    fi
    grep -q -- "$(command_of "$name")" <<<"$cmdline"
}

is_running() {
    local pid
    pid=$(read_pid "$1") || return 1
    is_alive "$1" "$pid"
}

# Every name with a pid file, the database first and the balancer last.
started_names() {
    local f name names=()
    [ -d "$DIR/pids" ] || return 0
    for f in "$DIR"/pids/*.pid; do
        [ -e "$f" ] || continue
        name=$(basename "$f" .pid)
        case $name in
        postgres | balancer) ;;
        *) names+=("$name") ;;
        esac
    done
    [ -f "$(pid_file postgres)" ] && echo postgres
    if [ ${#names[@]} -gt 0 ]; then printf '%s\n' "${names[@]}" | sort -V; fi
    [ -f "$(pid_file balancer)" ] && echo balancer
    return 0
}

# Sends SIG to NAME (an instance: its process group, which holds its search workers).
signal_name() {
    local sig=$1 name=$2 pid
    pid=$(read_pid "$name") || return 0
    is_alive "$name" "$pid" || return 0
    if is_instance "$name"; then
        kill "-$sig" -- "-$pid" 2>/dev/null || kill "-$sig" "$pid" 2>/dev/null || true
    else
        kill "-$sig" "$pid" 2>/dev/null || true
    fi
}

# Until none of NAMES runs, or SECONDS pass; 1 if some still run.
wait_gone() {
    local seconds=$1 name alive
    shift
    local deadline=$((SECONDS + seconds))
    while :; do
        alive=0
        for name in "$@"; do
            if is_running "$name"; then alive=1; fi
        done
        [ "$alive" = 0 ] && return 0
        [ "$SECONDS" -ge "$deadline" ] && return 1
        sleep 0.1
    done
}

# --- HTTP and the balancer's admin socket --------------------------------------------------------

# The status code of GET URL (000 when nothing answers).
http_status() {
    "$PY" - "$1" <<'EOF'
import sys, urllib.error, urllib.request
try:
    with urllib.request.urlopen(sys.argv[1], timeout=2) as r:
        print(r.status)
except urllib.error.HTTPError as e:
    print(e.code)
except OSError:
    print("000")
EOF
}

# A command to HAProxy's admin socket. The path is relative (HAProxy runs in DIR): a Unix
# socket path may not pass 107 bytes, and DIR may be long.
haproxy_command() {
    (cd "$DIR" && "$PY" - "$1" <<'EOF'
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(2)
try:
    s.connect("haproxy.sock")
    s.sendall(sys.argv[1].encode() + b"\n")
    out = b""
    while chunk := s.recv(65536):
        out += chunk
except OSError:
    sys.exit(1)
sys.stdout.write(out.decode())
EOF
    )
}

# UP, DOWN, MAINT… as the balancer sees instance NAME; nothing when it cannot say.
balancer_view() {
    is_running balancer || return 0
    haproxy_command "show stat" 2>/dev/null |
        awk -F, -v b="$BACKEND" -v s="$1" '$1 == b && $2 == s { print $18 }' || true
}

# --- starting ------------------------------------------------------------------------------------

instance_port() {
    local var=INSTANCE_${1}_PORT
    echo "${!var:-}"
}

# Starts instance NAME on PORT (0: a free one) in a session of its own; the pid file at once,
# so that a stop after a failed start finds it.
launch_instance() {
    local name=$1 port=$2 logf extra=()
    logf=$(log_file "$name")
    read -r -a extra <<<"${PYRAMIDS_CLUSTER_ARGS:-}"
    echo "--- cluster.sh: $name starts $(date '+%F %T') ---" >>"$logf"
    PYTHONUNBUFFERED=1 setsid "$PY" -m pyramids.cli.main serve --host 127.0.0.1 --port "$port" \
        --db "$DB_URL" --instance "$name" --limit trusted_proxies=127.0.0.1 "${extra[@]}" \
        </dev/null >>"$logf" 2>&1 &
    echo $! >"$(pid_file "$name")"
}

# Until instance NAME (launched when its log had SKIP lines) prints its address and answers
# GET /healthz with 200; prints its port. 1, with the reason, when it exits or times out.
await_instance() {
    local name=$1 skip=$2 logf pid port='' deadline=$((SECONDS + START_TIMEOUT))
    logf=$(log_file "$name")
    pid=$(read_pid "$name")
    while :; do
        if ! is_alive "$name" "$pid"; then
            log "$name exited while starting; its log, $logf, ends:"
            tail -n 20 "$logf" >&2
            return 1
        fi
        if [ -z "$port" ]; then
            port=$(tail -n "+$((skip + 1))" "$logf" |
                sed -n 's|^pyramids: serving on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' | head -n 1)
        fi
        if [ -n "$port" ] && [ "$(http_status "http://127.0.0.1:$port/healthz")" = 200 ]; then
            echo "$port"
            return 0
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            log "$name did not answer GET /healthz with 200 within ${START_TIMEOUT} s; see $logf"
            return 1
        fi
        sleep 0.2
    done
}

line_count() { if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi; }

# Starts instance NAME on PORT and waits until it serves (prints the port).
start_instance() {
    local skip
    skip=$(line_count "$(log_file "$1")")
    launch_instance "$1" "$2"
    await_instance "$1" "$skip"
}

# Whether the postmaster named in DATA's lock file runs. PostgreSQL's own test is kill -0,
# which a killed postmaster nobody reaped yet (a zombie) passes.
postmaster_runs() {
    local lock=$1/postmaster.pid
    [ -f "$lock" ] && is_alive postgres "$(head -n 1 "$lock")"
}

# Starts PostgreSQL on PORT (default: a free port). After a kill its backends may still hold
# the shared memory a second: a few tries, a second apart.
start_postgres() {
    local data=$DIR/pg/data logf tries=1
    logf=$(log_file postgres)
    touch "$logf"
    pg_own "$logf" # PostgreSQL writes it as its own user
    if [ -f "$data/postmaster.pid" ] && ! postmaster_runs "$data"; then
        rm -f "$data/postmaster.pid" # left by a killed postmaster
    fi
    [ -n "${1:-}" ] && tries=5
    until pg_start "$data" "$logf" "$DIR/pg" "${1:-}" 2>/dev/null; do
        tries=$((tries - 1))
        if [ "$tries" -le 0 ]; then
            log "PostgreSQL did not start; its log, $logf, ends:"
            tail -n 20 "$logf" >&2
            return 1
        fi
        sleep 1
    done
    head -n 1 "$data/postmaster.pid" >"$(pid_file postgres)"
}

# The health checks, retries and servers of a backend of haproxy.cfg.
backend_common() {
    local name
    cat <<EOF
    # an empty response may mean the request was applied: only reads are sent again
    http-request disable-l7-retry unless METH_GET
    option httpchk
    http-check send meth GET uri /healthz ver HTTP/1.1 hdr Host localhost
    http-check expect status 200
    # a dead instance is out after two failed checks half a second apart
    default-server check inter 500ms fastinter 250ms downinter 500ms fall 2 rise 1
EOF
    for name in $(instance_names); do
        echo "    server $name 127.0.0.1:$(instance_port "$name")"
    done
}

# haproxy.cfg: see docs/DEPLOY.md for each choice.
write_haproxy_config() {
    local maxconn fds
    fds=$(ulimit -n)
    # two descriptors a connection (client and server side), some to spare
    if [ "$fds" = unlimited ] || [ "$fds" -gt 16200 ]; then maxconn=8000; else maxconn=$(((fds - 200) / 2)); fi
    {
        cat <<EOF
# Written by scripts/cluster.sh start (docs/DEPLOY.md explains each line). HAProxy runs in
# the cluster's directory: the paths below are relative to it.
global
    log stdout format raw local0 info
    maxconn $maxconn
    stats socket unix@haproxy.sock mode 600 level admin

defaults
    mode http
    log global
    option httplog
    option dontlog-normal          # log errors and health changes only
    option log-health-checks
    maxconn $maxconn
    # a new server connection per request: each request is balanced on its own, and no
    # idle connection can be closed by an instance just as the balancer reuses it
    option http-server-close
    # a request whose instance refuses the connection goes to another at once
    option redispatch 1
    retries 3
    retry-on conn-failure empty-response
    timeout connect 1s
    timeout client 60s
    timeout server 60s
    timeout http-request 10s
    timeout http-keep-alive 5s
    timeout client-fin 5s
    timeout tunnel 1h              # an open WebSocket
    timeout check 2s

frontend front
    bind 127.0.0.1:$PORT
    # the balancer is the edge: what a client says it forwarded is dropped
    http-request del-header X-Forwarded-For
    http-request set-header X-Forwarded-Proto http
    option forwardfor
    # one table's sockets and requests go to one instance (which then owns the table:
    # docs/CLUSTER.md, "Table affinity"); the lobby, pages and new tables to the least busy
    acl table_path path_beg /ws/tables/ /api/tables/
    use_backend $TABLES if table_path
    default_backend $BACKEND

backend $BACKEND
    # the load is mostly long-lived WebSockets: the fewest open connections, not turns
    balance leastconn
EOF
        backend_common
        cat <<EOF

backend $TABLES
    # by the table id (/ws/tables/ID…, /api/tables/ID/…); consistent: an instance that
    # goes down moves only its own tables, and gets them back when it is up again
    balance hash path,field(4,/)
    hash-type consistent
EOF
        backend_common
    } >"$DIR/haproxy.cfg"
}

launch_balancer() {
    local logf
    logf=$(log_file balancer)
    echo "--- cluster.sh: balancer starts $(date '+%F %T') ---" >>"$logf"
    # Its log (failed requests, health changes) on standard output, through cat: HAProxy
    # makes the descriptor non-blocking, which drops O_APPEND (it would write over the log's
    # start). Its console (start-up alerts, and warnings that repeat log lines) on standard
    # error, kept apart.
    (cd "$DIR" && exec setsid "$HAPROXY" -db -f haproxy.cfg </dev/null \
        2>>"${logf%.log}.err" > >(exec cat >>"$logf")) &
    echo $! >"$(pid_file balancer)"
}

await_balancer() {
    local deadline=$((SECONDS + START_TIMEOUT)) logf
    logf=$(log_file balancer)
    until [ "$(http_status "http://127.0.0.1:$PORT/healthz")" = 200 ]; do
        if ! is_running balancer; then
            log "HAProxy exited while starting; its console, ${logf%.log}.err, ends:"
            tail -n 20 "${logf%.log}.err" >&2
            return 1
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            log "the balancer did not answer GET /healthz within ${START_TIMEOUT} s; see $logf"
            return 1
        fi
        sleep 0.2
    done
}

instance_names() { seq -f 'i%g' 1 "$INSTANCES"; }

write_env() {
    local name
    {
        printf 'DB_URL=%q\n' "$DB_URL"
        printf 'PORT=%q\n' "$PORT"
        printf 'INSTANCES=%q\n' "$INSTANCES"
        for name in $(instance_names); do
            printf 'INSTANCE_%s_PORT=%q\n' "$name" "$(instance_port "$name")"
        done
    } >"$DIR/cluster.env"
}

load_env() {
    [ -f "$DIR/cluster.env" ] || refuse "no cluster in $DIR (no cluster.env)"
    # shellcheck disable=SC1091 # written by write_env
    . "$DIR/cluster.env"
}

# --- commands ------------------------------------------------------------------------------------

# A start that fails stops what it started (the logs stay).
on_start_exit() {
    local status=$?
    if [ "$status" != 0 ]; then
        log "start failed; stopping what was started (logs in $DIR/logs)"
        cmd_stop >/dev/null 2>&1 || true
    fi
}

cmd_start() {
    local name running=() bin port
    [ -x "$HAPROXY" ] || refuse "HAProxy is not installed ($HAPROXY): apt-get install haproxy"
    pg_available || refuse "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): apt-get install postgresql"
    [ -x "$PY" ] || refuse "no Python at $PY: run ./run help first (it makes .venv), or set PYTHON"
    [[ $INSTANCES =~ ^[1-9][0-9]*$ ]] || refuse "INSTANCES must be a positive number, not '$INSTANCES'"
    if ! [[ $PORT =~ ^[0-9]+$ ]] || [ "$PORT" -gt 65535 ]; then
        refuse "PORT must be a number 0-65535, not '$PORT'"
    fi
    mkdir -p "$DIR/pids" "$DIR/logs"
    for name in $(started_names); do
        if is_running "$name"; then running+=("$name"); fi
    done
    if [ ${#running[@]} -gt 0 ]; then
        refuse "$DIR already holds a running cluster (${running[*]} running): scripts/cluster.sh stop $DIR"
    fi
    if [ "$PORT" = 0 ]; then
        PORT=$(free_port)
    elif ! port_is_free "$PORT"; then
        refuse "port $PORT is taken on 127.0.0.1: choose another PORT (0: any free port)"
    fi
    pg_use_user
    if [ "$(id -u)" = 0 ]; then
        chmod a+x "$DIR" # user postgres must pass through it to DIR/pg
    fi
    pg_own "$DIR/pg"
    as_pg test -w "$DIR/pg" ||
        refuse "user $PG_USER cannot write to $DIR/pg: every directory above it must let others pass (chmod a+x), e.g. a DIR made by mktemp -d"
    # From here on, a failure stops what was started.
    trap on_start_exit EXIT

    rm -f "$DIR/pids"/*.pid
    pg_initdb "$DIR/pg/data" "$(log_file initdb)"
    start_postgres
    bin=$(pg_bindir)
    DB_URL="postgresql+psycopg://$PG_USER@127.0.0.1:$PG_PORT/pyramids"
    if [ -z "$("$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" -d postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname = 'pyramids'")" ]; then
        "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" pyramids
    fi
    log "PostgreSQL on 127.0.0.1:$PG_PORT; starting $INSTANCES instances"

    # Together (the migrations take an advisory lock), then each awaited.
    declare -A skip
    for name in $(instance_names); do
        skip[$name]=$(line_count "$(log_file "$name")")
        launch_instance "$name" 0
    done
    for name in $(instance_names); do
        port=$(await_instance "$name" "${skip[$name]}")
        printf -v "INSTANCE_${name}_PORT" %s "$port"
        log "$name serves on 127.0.0.1:$port"
    done
    write_env
    write_haproxy_config
    (cd "$DIR" && "$HAPROXY" -c -f haproxy.cfg >/dev/null)
    launch_balancer
    await_balancer
    trap - EXIT
    log "the balancer serves on 127.0.0.1:$PORT (stop: scripts/cluster.sh stop $DIR)"
    echo "http://127.0.0.1:$PORT/"
}

cmd_stop() {
    local name instances=() left=()
    [ -d "$DIR" ] || return 0
    for name in $(started_names); do
        if is_instance "$name"; then instances+=("$name"); fi
    done
    # The balancer first: no request reaches an instance that is stopping.
    signal_name TERM balancer
    wait_gone 5 balancer || signal_name KILL balancer
    if [ ${#instances[@]} -gt 0 ]; then
        for name in "${instances[@]}"; do signal_name TERM "$name"; done
        if ! wait_gone "$STOP_TIMEOUT" "${instances[@]}"; then
            for name in "${instances[@]}"; do
                if is_running "$name"; then left+=("$name"); fi
            done
            log "${left[*]} still running after ${STOP_TIMEOUT} s: SIGKILL"
            for name in "${left[@]}"; do signal_name KILL "$name"; done
            wait_gone 5 "${left[@]}" || true
        fi
    fi
    if pg_available && postmaster_runs "$DIR/pg/data"; then
        pg_use_user
        pg_stop "$DIR/pg/data"
    fi
    rm -f "$DIR"/pids/*.pid
    log "stopped the cluster in $DIR"
}

cmd_kill() {
    local name=$1
    is_running "$name" || refuse "$name is not running in $DIR"
    signal_name KILL "$name"
    wait_gone 5 "$name" || {
        log "$name still runs 5 s after SIGKILL"
        exit 1
    }
    log "killed $name"
}

cmd_restart() {
    local name=$1 port view deadline
    load_env
    is_running "$name" && refuse "$name is already running in $DIR"
    case $name in
    postgres)
        pg_use_user
        start_postgres "$(sed -n 's|.*@127\.0\.0\.1:\([0-9]*\)/.*|\1|p' <<<"$DB_URL")"
        ;;
    balancer)
        launch_balancer
        await_balancer
        ;;
    *)
        port=$(instance_port "$name")
        [ -n "$port" ] || refuse "no instance $name in $DIR (instances: $(instance_names | xargs))"
        if ! start_instance "$name" "$port" >/dev/null; then
            signal_name KILL "$name"
            exit 1
        fi
        # then until the balancer sends it requests again (a check or two)
        deadline=$((SECONDS + 10))
        while is_running balancer; do
            view=$(balancer_view "$name")
            [ "${view%% *}" = UP ] && break
            if [ "$SECONDS" -ge "$deadline" ]; then
                log "the balancer still sees $name as ${view:-unknown} after 10 s"
                exit 1
            fi
            sleep 0.1
        done
        ;;
    esac
    log "$name runs again"
}

cmd_status() {
    local name pid state all=0 names=() detail view
    if [ -f "$DIR/cluster.env" ]; then
        load_env
        mapfile -t names < <(echo postgres; instance_names; echo balancer)
    else
        mapfile -t names < <(started_names)
    fi
    if [ ${#names[@]} = 0 ]; then
        log "no cluster in $DIR"
        return 3
    fi
    for name in "${names[@]}"; do
        pid=$(read_pid "$name" 2>/dev/null || true)
        detail=
        if [ -z "$pid" ]; then
            state=stopped
        elif is_alive "$name" "$pid"; then
            state=running
        else
            state=dead
        fi
        [ "$state" = running ] || all=3
        if is_instance "$name"; then
            detail="port $(instance_port "$name")"
            view=$(balancer_view "$name")
            [ -n "$view" ] && detail+=" balancer $view"
        elif [ "$name" = balancer ]; then
            detail="port ${PORT:-?}"
        fi
        printf '%-9s %-8s pid %-8s %s\n' "$name" "$state" "${pid:--}" "$detail"
    done
    return "$all"
}

# --- main ----------------------------------------------------------------------------------------

[ $# -ge 2 ] || usage
cmd=$1
DIR=$2
INSTANCES=${INSTANCES:-3}
case $cmd in
start)
    [ $# = 3 ] || usage
    PORT=$3
    mkdir -p "$DIR"
    DIR=$(cd "$DIR" && pwd)
    cmd_start
    ;;
stop | status)
    [ $# = 2 ] || usage
    if [ ! -d "$DIR" ]; then
        [ "$cmd" = stop ] && exit 0 # nothing was ever started there
        refuse "no directory $DIR"
    fi
    DIR=$(cd "$DIR" && pwd)
    "cmd_$cmd"
    ;;
kill | restart)
    [ $# = 3 ] || usage
    [ -d "$DIR" ] || refuse "no directory $DIR"
    DIR=$(cd "$DIR" && pwd)
    [[ $3 =~ ^(postgres|balancer|i[0-9]+)$ ]] || refuse "NAME is postgres, balancer or i1, i2…, not '$3'"
    "cmd_$cmd" "$3"
    ;;
*) usage ;;
esac
