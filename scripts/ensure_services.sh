#!/usr/bin/env bash
# Make sure PostgreSQL and Redis answer for the tests, starting them when they are
# installed but stopped, and make sure the database named in DATABASE_URL exists.
set -euo pipefail

DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/shuangkou}"
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"

fail() {
    echo "ensure_services: $*" >&2
    exit 1
}

url_host_port() {  # url_host_port URL DEFAULT_PORT: prints "host port"
    local rest=${1#*://}
    rest=${rest%%/*}
    rest=${rest##*@}
    local host=${rest%:*} port=${rest##*:}
    [ "$host" = "$rest" ] && port=$2
    echo "$host" "$port"
}

is_local() {
    case "$1" in 127.0.0.1 | localhost | "[::1]" | "") return 0 ;; *) return 1 ;; esac
}

wait_until() {  # wait_until SECONDS COMMAND...: retry COMMAND once a second
    local seconds=$1
    shift
    for _ in $(seq "$seconds"); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 1
    done
    return 1
}

ensure_postgres() {
    command -v pg_isready >/dev/null || fail "PostgreSQL is not installed: apt-get install postgresql redis-server"
    if pg_isready -q -d "$DATABASE_URL"; then
        return
    fi
    local host
    read -r host _ <<<"$(url_host_port "$DATABASE_URL" 5432)"
    is_local "$host" || fail "PostgreSQL does not answer at $DATABASE_URL"
    if command -v pg_ctlcluster >/dev/null && [ -n "$(ls /etc/postgresql 2>/dev/null)" ]; then
        echo "ensure_services: starting PostgreSQL"
        local version
        version=$(ls /etc/postgresql | sort -V | tail -n 1)
        pg_ctlcluster --skip-systemctl-redirect "$version" main start \
            || service postgresql start \
            || true
    else
        fail "PostgreSQL does not answer at $DATABASE_URL and is not installed: apt-get install postgresql redis-server"
    fi
    wait_until 30 pg_isready -q -d "$DATABASE_URL" \
        || fail "PostgreSQL did not start; check the cluster's log in /var/log/postgresql"
}

ensure_redis() {
    command -v redis-cli >/dev/null || fail "Redis is not installed: apt-get install postgresql redis-server"
    if redis-cli -u "$REDIS_URL" ping >/dev/null 2>&1; then
        return
    fi
    local host port
    read -r host port <<<"$(url_host_port "$REDIS_URL" 6379)"
    is_local "$host" || fail "Redis does not answer at $REDIS_URL"
    command -v redis-server >/dev/null \
        || fail "Redis does not answer at $REDIS_URL and redis-server is not installed: apt-get install postgresql redis-server"
    echo "ensure_services: starting Redis on port $port"
    # Test data only: keep nothing on disk.
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$port" --save "" --appendonly no
    wait_until 10 redis-cli -u "$REDIS_URL" ping || fail "Redis did not start on port $port"
}

ensure_database() {
    # Connect to the maintenance database of the same server to create the project's one.
    local server_url="${DATABASE_URL%/*}/postgres"
    local database="${DATABASE_URL##*/}"
    database="${database%%\?*}"
    local exists
    exists=$(psql "$server_url" -tAc "SELECT 1 FROM pg_database WHERE datname = '$database'")
    if [ "$exists" != "1" ]; then
        echo "ensure_services: creating database $database"
        psql "$server_url" -qc "CREATE DATABASE \"$database\""
    fi
}

ensure_postgres
ensure_redis
ensure_database
echo "ensure_services: PostgreSQL and Redis are up"
