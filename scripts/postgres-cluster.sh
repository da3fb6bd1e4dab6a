#!/usr/bin/env bash
# A throwaway PostgreSQL server for tests and development.
#
#   scripts/postgres-cluster.sh start DIR   new cluster in DIR (which must not exist or be empty) on a
#                                           free loopback port; prints `export PERSIST_POSTGRES_URL=…`
#                                           lines on stdout (eval them) and writes the URL to DIR/url
#   scripts/postgres-cluster.sh stop DIR    stops the server (fast shutdown) and removes DIR; safe to
#                                           call twice, and refuses to remove a directory it did not make
#   scripts/postgres-cluster.sh run CMD…    start a cluster in a new temporary directory, run CMD with
#                                           PERSIST_POSTGRES_URL, PERSIST_POSTGRES_BINDIR and
#                                           PERSIST_POSTGRES_DATA exported, then stop it (also when CMD
#                                           fails or is interrupted); exits with CMD's status
#
# The cluster: initdb as the `postgres` OS user when run as root (initdb and postgres refuse root),
# otherwise as the caller; trust authentication for local and loopback connections except the role
# `persist_pw`, which must log in over 127.0.0.1 with scram-sha-256 and the password `persist-pw`
# (so tests can provoke authentication failures); listens on 127.0.0.1 only, its Unix socket in
# DIR; fsync on (the crash tests need real durability); a database `persist`.
#
# Layout of DIR: data/ (PGDATA), log (server log), url, port, and .persist-postgres-cluster (the
# marker `stop` checks before removing anything).
set -euo pipefail

readonly MARKER=.persist-postgres-cluster
readonly PASSWORD_ROLE=persist_pw
readonly PASSWORD=persist-pw
readonly DATABASE=persist

say() { echo "postgres-cluster: $*" >&2; }
die() { say "$*"; exit 1; }

usage() {
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 64
}

# The directory of initdb, pg_ctl and postgres.
bindir() {
    local dir
    if command -v pg_config >/dev/null 2>&1; then
        dir=$(pg_config --bindir)
        if [ -x "$dir/initdb" ]; then echo "$dir"; return; fi
    fi
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$dir/initdb" ]; then echo "$dir"; return; fi
    done
    if command -v initdb >/dev/null 2>&1; then dirname "$(readlink -f "$(command -v initdb)")"; return; fi
    die "no PostgreSQL server binaries (initdb, pg_ctl, postgres) found; install them with 'make deps' (apt package postgresql)"
}

# Runs a command as the cluster's owner: `postgres` when we are root, else ourselves.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

owner() {
    if [ "$(id -u)" -eq 0 ]; then echo postgres; else id -un; fi
}

# Whether something accepts TCP connections on 127.0.0.1:PORT.
port_in_use() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# A port in 20000–59999 that nothing listens on now (the server may still lose a race for it;
# start() then tries another).
free_port() {
    local port attempt
    for attempt in $(seq 1 50); do
        port=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
        if ! port_in_use "$port"; then echo "$port"; return; fi
    done
    die "found no free loopback port"
}

start() {
    local dir=$1
    [ -n "$dir" ] || usage
    if [ -e "$dir" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ]; then
        die "$dir exists and is not empty; give a new directory (or stop the cluster in it first)"
    fi
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd -P)
    touch "$dir/$MARKER"
    # The owner must reach DIR: every parent must be traversable.
    local parent=$dir
    while [ "$parent" != / ]; do
        parent=$(dirname "$parent")
        if ! as_owner test -x "$parent"; then
            die "$(owner) cannot enter $parent, a parent of $dir; use a directory under /tmp (mktemp -d)"
        fi
    done
    chown "$(owner)" "$dir"
    chmod 700 "$dir"

    local bin
    bin=$(bindir)
    as_owner "$bin/initdb" --pgdata="$dir/data" --username=postgres --auth-local=trust --auth-host=trust \
        --encoding=UTF8 --locale=C --no-instructions >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; die "initdb failed (log above)"; }

    # First match wins: the password role must use scram over TCP; everyone else is trusted.
    local hba="$dir/data/pg_hba.conf"
    as_owner sh -c "{ printf 'host all %s 127.0.0.1/32 scram-sha-256\n' '$PASSWORD_ROLE'; cat '$hba'; } > '$hba.new' && mv '$hba.new' '$hba'"

    local port attempt started=no
    for attempt in 1 2 3 4 5; do
        port=$(free_port)
        as_owner sh -c "cat > '$dir/data/postgresql.auto.conf'" <<EOF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
fsync = on
synchronous_commit = on
full_page_writes = on
max_connections = 200
password_encryption = 'scram-sha-256'
logging_collector = off
log_min_messages = warning
EOF
        if as_owner "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/log" --wait --timeout=60 start >/dev/null 2>&1; then
            started=yes
            break
        fi
        if grep -q "could not bind\|could not create any TCP/IP sockets\|Address already in use" "$dir/log" 2>/dev/null; then
            say "port $port was taken meanwhile; trying another"
            continue
        fi
        cat "$dir/log" >&2 || true
        die "the server did not start (log above)"
    done
    [ "$started" = yes ] || die "the server could not bind a free port after 5 attempts"
    echo "$port" > "$dir/port"

    as_owner "$bin/psql" --no-psqlrc --quiet --set=ON_ERROR_STOP=1 --host="$dir" --port="$port" \
        --username=postgres --dbname=postgres >/dev/null <<EOF
CREATE ROLE $PASSWORD_ROLE LOGIN PASSWORD '$PASSWORD';
CREATE DATABASE $DATABASE;
GRANT ALL ON DATABASE $DATABASE TO $PASSWORD_ROLE;
EOF

    PERSIST_POSTGRES_URL="postgresql://postgres@127.0.0.1:$port/$DATABASE"
    PERSIST_POSTGRES_BINDIR=$bin
    PERSIST_POSTGRES_DATA=$dir/data
    echo "$PERSIST_POSTGRES_URL" > "$dir/url"
    say "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') is running on 127.0.0.1:$port, data in $dir/data"
    echo "export PERSIST_POSTGRES_URL=$PERSIST_POSTGRES_URL"
    echo "export PERSIST_POSTGRES_BINDIR=$PERSIST_POSTGRES_BINDIR"
    echo "export PERSIST_POSTGRES_DATA=$PERSIST_POSTGRES_DATA"
}

stop() {
    local dir=$1
    [ -n "$dir" ] || usage
    if [ ! -e "$dir" ]; then
        say "$dir does not exist; nothing to stop"
        return 0
    fi
    [ -e "$dir/$MARKER" ] || die "$dir was not made by this script (no $MARKER); not touching it"
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_owner "$(bindir)/pg_ctl" --pgdata="$dir/data" --mode=fast --wait --timeout=60 stop >/dev/null 2>&1 \
            || as_owner "$(bindir)/pg_ctl" --pgdata="$dir/data" --mode=immediate --wait stop >/dev/null 2>&1 \
            || say "the server in $dir was not running"
    fi
    rm -rf "$dir"
    say "stopped and removed $dir"
}

run() {
    [ "$#" -gt 0 ] || usage
    # Global, not local: the EXIT trap runs after run() has returned.
    RUN_DIR=$(mktemp -d /tmp/persist-postgres.XXXXXX)
    # Stop the cluster however this script ends: CMD done or failed, Ctrl-C, kill. In a subshell,
    # so that nothing in stop can change the exit status.
    trap '(stop "$RUN_DIR") || true' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    # In this shell, not a subshell: a signal during start then waits for the step that runs
    # (initdb, pg_ctl) and the EXIT trap finds the server that step started.
    start "$RUN_DIR" >/dev/null
    export PERSIST_POSTGRES_URL PERSIST_POSTGRES_BINDIR PERSIST_POSTGRES_DATA
    # CMD runs in the background so that a signal reaches the traps at once, not when CMD ends;
    # the traps pass it on (as TERM: a background command ignores INT) and wait for CMD to end.
    local status=0 child
    "$@" <&0 &
    child=$!
    trap 'kill -TERM "$child" 2>/dev/null; wait "$child" || true; exit 130' INT
    trap 'kill -TERM "$child" 2>/dev/null; wait "$child" || true; exit 143' TERM
    wait "$child" || status=$?
    exit "$status"
}

case "${1:-}" in
    start) [ "$#" -eq 2 ] || usage; start "$2" ;;
    stop) [ "$#" -eq 2 ] || usage; stop "$2" ;;
    run) shift; run "$@" ;;
    *) usage ;;
esac
