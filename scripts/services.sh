#!/usr/bin/env bash
# Makes sure Postgres and Redis answer at the hosts and ports of DATABASE_URL and REDIS_URL.
# Order of attempts: already running; `docker compose` when a Docker engine answers; locally
# installed servers; else stop with what to install. Used by `npm run dev` and CI.
set -euo pipefail

DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/punctual}"
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"

host_port() { # URL DEFAULT_PORT → "host port"
  node -e 'const u = new URL(process.argv[1]); console.log(u.hostname, u.port || process.argv[2])' "$1" "$2"
}
read -r PG_HOST PG_PORT < <(host_port "$DATABASE_URL" 5432)
read -r REDIS_HOST REDIS_PORT < <(host_port "$REDIS_URL" 6379)

answers() { # host port → whether something accepts TCP connections there
  (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null
}

postgres_up() {
  if command -v pg_isready >/dev/null 2>&1; then pg_isready -q -h "$PG_HOST" -p "$PG_PORT"; else answers "$PG_HOST" "$PG_PORT"; fi
}
redis_up() {
  if command -v redis-cli >/dev/null 2>&1; then [ "$(redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ]; else answers "$REDIS_HOST" "$REDIS_PORT"; fi
}

wait_for() { # name check-function
  for _ in $(seq 1 60); do "$2" && return 0; sleep 1; done
  echo "$1 did not come up within 60 s." >&2
  return 1
}

is_local() { [ "$1" = 127.0.0.1 ] || [ "$1" = localhost ]; }

start_postgres() {
  if docker info >/dev/null 2>&1 && [ -f docker-compose.yml ]; then
    echo "Starting Postgres with docker compose ..."
    docker compose up -d postgres
  elif command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    echo "Starting the local PostgreSQL cluster ..."
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | tail -n 1)" main start
  else
    cat >&2 <<MSG
Postgres is not reachable at $PG_HOST:$PG_PORT, and neither a Docker engine nor a local PostgreSQL server was found.
Install Docker (then run this again), or install PostgreSQL 15+ and start it:
  Debian/Ubuntu: sudo apt install postgresql      macOS: brew install postgresql@16 && brew services start postgresql@16
Or point DATABASE_URL in .env at a Postgres you already run.
MSG
    return 1
  fi
}

start_redis() {
  if docker info >/dev/null 2>&1 && [ -f docker-compose.yml ]; then
    echo "Starting Redis with docker compose ..."
    docker compose up -d redis
  elif command -v redis-server >/dev/null 2>&1; then
    echo "Starting a local redis-server on port $REDIS_PORT ..."
    redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no >/dev/null
  else
    cat >&2 <<MSG
Redis is not reachable at $REDIS_HOST:$REDIS_PORT, and neither a Docker engine nor redis-server was found.
Install Docker (then run this again), or install Redis 6.2+:
  Debian/Ubuntu: sudo apt install redis-server    macOS: brew install redis && brew services start redis
Or point REDIS_URL in .env at a Redis you already run.
MSG
    return 1
  fi
}

ensure() { # name up-function start-function host port
  "$2" && return 0
  if ! is_local "$4"; then
    echo "$1 is not reachable at $4:$5 (not a local address, so it is not started here)." >&2
    return 1
  fi
  "$3"
  wait_for "$1" "$2"
}

ensure Postgres postgres_up start_postgres "$PG_HOST" "$PG_PORT"
ensure Redis redis_up start_redis "$REDIS_HOST" "$REDIS_PORT"
echo "Postgres ($PG_HOST:$PG_PORT) and Redis ($REDIS_HOST:$REDIS_PORT) are up."
