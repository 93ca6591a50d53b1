#!/usr/bin/env bash
# Makes sure Postgres and Redis answer at the hosts and ports of DATABASE_URL and REDIS_URL, and,
# when NATS_URL is set (the test run sets it), a NATS server there too; when NATS_TENANTS_URL is set
# (the test run sets it), a NATS server there with a user per tenant (config/nats/tenants.conf); when
# REDIS_CLUSTER_PORT is set (the test run sets it), a local six-node Redis Cluster on that port and the five after it;
# when RABBITMQ_URL is set (the test run sets it), RabbitMQ there, with the users and virtual host of
# config/rabbitmq/tenants.sh when it runs on this machine; when MQTT_URL is set (the test run sets it), an MQTT broker there;
# when MQTT_TENANTS_URL is set (the test run sets it), a Mosquitto there with a user per tenant (config/mosquitto/acl).
# Order of attempts: already running; a development container when a Docker engine answers;
# locally installed servers (NATS: installed with apt when missing and allowed); else stop with what
# to install. Used by `npm run dev`, `npm test` and CI.
# The containers are for development only: passwordless, published on 127.0.0.1, like the
# URLs of .env.example. docker-compose.yml is the deployment, with passwords it requires.
# With SERVICES_STARTED_FILE set (`npm run dev` sets it), each service started here, and only those,
# is added to that file as a line scripts/stop-services.sh understands, so the caller can stop them.
set -euo pipefail

DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/punctual}"
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"

host_port() { # URL DEFAULT_PORT → "host port"
  node -e 'const u = new URL(process.argv[1]); console.log(u.hostname, u.port || process.argv[2])' "$1" "$2"
}
read -r PG_HOST PG_PORT < <(host_port "$DATABASE_URL" 5432)
read -r REDIS_HOST REDIS_PORT < <(host_port "$REDIS_URL" 6379)
if [ -n "${NATS_URL:-}" ]; then read -r NATS_HOST NATS_PORT < <(host_port "$NATS_URL" 4222); fi
if [ -n "${NATS_TENANTS_URL:-}" ]; then read -r NATS_TENANTS_HOST NATS_TENANTS_PORT < <(host_port "$NATS_TENANTS_URL" 4222); fi
if [ -n "${RABBITMQ_URL:-}" ]; then read -r RABBITMQ_HOST RABBITMQ_PORT < <(host_port "$RABBITMQ_URL" 5672); fi
if [ -n "${MQTT_URL:-}" ]; then read -r MQTT_HOST MQTT_PORT < <(host_port "$MQTT_URL" 1883); fi
if [ -n "${MQTT_TENANTS_URL:-}" ]; then read -r MQTT_TENANTS_HOST MQTT_TENANTS_PORT < <(host_port "$MQTT_TENANTS_URL" 1883); fi
RABBITMQ_TENANTS_SCRIPT="$(cd "$(dirname "$0")/.." && pwd)/config/rabbitmq/tenants.sh"
NATS_TENANTS_CONFIG="$(cd "$(dirname "$0")/.." && pwd)/config/nats/tenants.conf"
MOSQUITTO_CONFIG_DIR="$(cd "$(dirname "$0")/.." && pwd)/config/mosquitto"

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

started() { # kind id → notes a service started here: "container NAME", "cluster VERSION", "pid PID" or "pidfile PATH"
  [ -z "${SERVICES_STARTED_FILE:-}" ] || echo "$1 $2" >>"$SERVICES_STARTED_FILE"
}

is_local() { [ "$1" = 127.0.0.1 ] || [ "$1" = localhost ]; }

docker_runs() { command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; }

dev_container() { # name host-port container-port docker-run-arguments... → starts it, creating it the first time
  local name=$1 port=$2 inner=$3
  shift 3
  if docker container inspect "$name" >/dev/null 2>&1; then
    docker start "$name" >/dev/null
  else
    docker run -d --name "$name" -p "127.0.0.1:$port:$inner" "$@" >/dev/null
  fi
  started container "$name"
}

start_postgres() {
  if docker_runs; then
    echo "Starting Postgres in the Docker container punctual-dev-postgres ..."
    dev_container punctual-dev-postgres "$PG_PORT" 5432 -e POSTGRES_HOST_AUTH_METHOD=trust \
      -v punctual-dev-postgres:/var/lib/postgresql/data postgres:16-alpine
  elif command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    echo "Starting the local PostgreSQL cluster ..."
    local version
    version="$(ls /etc/postgresql | tail -n 1)"
    pg_ctlcluster --skip-systemctl-redirect "$version" main start
    started cluster "$version"
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
  if docker_runs; then
    echo "Starting Redis in the Docker container punctual-dev-redis ..."
    dev_container punctual-dev-redis "$REDIS_PORT" 6379 redis:7-alpine redis-server --save "" --appendonly no --hz 100
  elif command -v redis-server >/dev/null 2>&1; then
    echo "Starting a local redis-server on port $REDIS_PORT ..."
    local pidfile="${TMPDIR:-/tmp}/punctual-dev-redis-$REDIS_PORT.pid"
    redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no --pidfile "$pidfile" >/dev/null
    started pidfile "$pidfile"
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

nats_up() { answers "$NATS_HOST" "$NATS_PORT"; }
nats_tenants_up() { answers "$NATS_TENANTS_HOST" "$NATS_TENANTS_PORT"; }

run_nats() { # container-name port [config-file] → a NATS server on 127.0.0.1:port, with that configuration
  local name=$1 port=$2 config=${3:-}
  if docker_runs; then
    echo "Starting NATS in the Docker container $name ..."
    if [ -n "$config" ]; then
      dev_container "$name" "$port" 4222 -v "$config:/etc/nats/tenants.conf:ro" nats:2-alpine --config /etc/nats/tenants.conf
    else
      dev_container "$name" "$port" 4222 nats:2-alpine
    fi
    return
  fi
  if ! command -v nats-server >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing nats-server with apt ..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nats-server >/dev/null
  fi
  if command -v nats-server >/dev/null 2>&1; then
    echo "Starting a local nats-server on 127.0.0.1:$port${config:+ with $config} ..."
    nohup nats-server ${config:+--config "$config"} --addr 127.0.0.1 --port "$port" >/dev/null 2>&1 &
    started pid $!
    disown
  else
    cat >&2 <<MSG
NATS is not reachable at 127.0.0.1:$port, and neither a Docker engine nor nats-server was found.
Install it: Debian/Ubuntu: sudo apt install nats-server    macOS: brew install nats-server
MSG
    return 1
  fi
}
start_nats() { run_nats punctual-dev-nats "$NATS_PORT"; }
start_nats_tenants() { run_nats punctual-dev-nats-tenants "$NATS_TENANTS_PORT" "$NATS_TENANTS_CONFIG"; }

rabbitmq_up() { answers "$RABBITMQ_HOST" "$RABBITMQ_PORT"; }
mqtt_up() { answers "$MQTT_HOST" "$MQTT_PORT"; }
mqtt_tenants_up() { answers "$MQTT_TENANTS_HOST" "$MQTT_TENANTS_PORT"; }

start_rabbitmq() {
  if docker_runs; then
    echo "Starting RabbitMQ in the Docker container punctual-dev-rabbitmq ..."
    dev_container punctual-dev-rabbitmq "$RABBITMQ_PORT" 5672 rabbitmq:3-alpine
  elif command -v rabbitmq-server >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "Starting the local rabbitmq-server ..."
    if command -v service >/dev/null 2>&1 && [ -x /etc/init.d/rabbitmq-server ]; then service rabbitmq-server start >/dev/null; else rabbitmq-server -detached; fi
  else
    cat >&2 <<MSG
RabbitMQ is not reachable at 127.0.0.1:$RABBITMQ_PORT, and neither a Docker engine nor rabbitmq-server (run as root) was found.
Install it: Debian/Ubuntu: sudo apt install rabbitmq-server    macOS: brew install rabbitmq
MSG
    return 1
  fi
}

# The tenants' virtual host and users (config/rabbitmq/tenants.sh), made or brought up to date; a
# fresh broker takes a few seconds after its port opens before rabbitmqctl may change it.
rabbitmq_tenants() {
  if docker_runs && docker container inspect punctual-dev-rabbitmq >/dev/null 2>&1; then
    run() { docker exec -i punctual-dev-rabbitmq sh -s < "$RABBITMQ_TENANTS_SCRIPT"; }
  elif command -v rabbitmqctl >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    run() { sh "$RABBITMQ_TENANTS_SCRIPT"; }
  else
    echo "Cannot run rabbitmqctl here (as root, or in the punctual-dev-rabbitmq container): run config/rabbitmq/tenants.sh where it can." >&2
    return 1
  fi
  for _ in $(seq 1 30); do run 2>/dev/null && return 0; sleep 2; done
  run
}

start_mqtt() {
  if docker_runs; then
    echo "Starting Mosquitto in the Docker container punctual-dev-mosquitto ..."
    dev_container punctual-dev-mosquitto "$MQTT_PORT" 1883 eclipse-mosquitto:2 mosquitto -c /mosquitto-no-auth.conf
  elif command -v mosquitto >/dev/null 2>&1; then
    echo "Starting a local mosquitto on 127.0.0.1:$MQTT_PORT ..."
    mosquitto -d -p "$MQTT_PORT"
  else
    cat >&2 <<MSG
An MQTT broker is not reachable at 127.0.0.1:$MQTT_PORT, and neither a Docker engine nor mosquitto was found.
Install it: Debian/Ubuntu: sudo apt install mosquitto    macOS: brew install mosquitto
MSG
    return 1
  fi
}

# Mosquitto with the users and topics of config/mosquitto/acl and development passwords (config/mosquitto/dev-tenants.sh):
# no anonymous clients, so its ACL is what keeps tenants' topics apart.
start_mqtt_tenants() {
  if docker_runs; then
    echo "Starting Mosquitto with a user per tenant in the Docker container punctual-dev-mosquitto-tenants ..."
    dev_container punctual-dev-mosquitto-tenants "$MQTT_TENANTS_PORT" 1883 -v "$MOSQUITTO_CONFIG_DIR:/punctual:ro" eclipse-mosquitto:2 \
      sh -c 'mkdir -p /tmp/tenants && sh /punctual/dev-tenants.sh /tmp/tenants /punctual/acl 1883 && exec mosquitto -c /tmp/tenants/mosquitto.conf'
  elif command -v mosquitto >/dev/null 2>&1 && command -v mosquitto_passwd >/dev/null 2>&1; then
    local dir
    dir="$(mktemp -d "${TMPDIR:-/tmp}/punctual-mosquitto-tenants.XXXXXX")"
    echo "Starting a local mosquitto with a user per tenant on 127.0.0.1:$MQTT_TENANTS_PORT ..."
    sh "$MOSQUITTO_CONFIG_DIR/dev-tenants.sh" "$dir" "$MOSQUITTO_CONFIG_DIR/acl" "$MQTT_TENANTS_PORT" 127.0.0.1
    nohup mosquitto -c "$dir/mosquitto.conf" >/dev/null 2>&1 &
    started pid $!
    disown
  else
    cat >&2 <<MSG
Mosquitto is not reachable at 127.0.0.1:$MQTT_TENANTS_PORT, and neither a Docker engine nor mosquitto (with mosquitto_passwd) was found.
Install it: Debian/Ubuntu: sudo apt install mosquitto    macOS: brew install mosquitto
MSG
    return 1
  fi
}

ensure() { # name up-function start-function host port url-variable
  "$2" && return 0
  if ! is_local "$4"; then
    echo "$1 is not reachable at $4:$5 (not a local address, so it is not started here). Start it, or set $6 to one that runs." >&2
    return 1
  fi
  if ! "$3" || ! wait_for "$1" "$2"; then
    echo "$1 is not reachable at $4:$5 and could not be started here. Start it, or set $6 to one that runs." >&2
    return 1
  fi
}

# A caller whose URLs come from other variables (the test run) names them in SERVICES_*_HINT.
ensure Postgres postgres_up start_postgres "$PG_HOST" "$PG_PORT" "${SERVICES_DATABASE_HINT:-DATABASE_URL}"
ensure Redis redis_up start_redis "$REDIS_HOST" "$REDIS_PORT" "${SERVICES_REDIS_HINT:-REDIS_URL}"
if [ -n "${NATS_URL:-}" ]; then
  ensure NATS nats_up start_nats "$NATS_HOST" "$NATS_PORT" "${SERVICES_NATS_HINT:-NATS_URL}"
  echo "NATS ($NATS_HOST:$NATS_PORT) is up."
fi
if [ -n "${NATS_TENANTS_URL:-}" ]; then
  ensure "NATS with a user per tenant" nats_tenants_up start_nats_tenants "$NATS_TENANTS_HOST" "$NATS_TENANTS_PORT" "${SERVICES_NATS_TENANTS_HINT:-NATS_TENANTS_URL}"
  echo "NATS with a user per tenant ($NATS_TENANTS_HOST:$NATS_TENANTS_PORT) is up."
fi
if [ -n "${RABBITMQ_URL:-}" ]; then
  ensure RabbitMQ rabbitmq_up start_rabbitmq "$RABBITMQ_HOST" "$RABBITMQ_PORT" "${SERVICES_RABBITMQ_HINT:-RABBITMQ_URL}"
  if is_local "$RABBITMQ_HOST"; then rabbitmq_tenants; fi
  echo "RabbitMQ ($RABBITMQ_HOST:$RABBITMQ_PORT) is up."
fi
if [ -n "${MQTT_URL:-}" ]; then
  ensure "An MQTT broker" mqtt_up start_mqtt "$MQTT_HOST" "$MQTT_PORT" "${SERVICES_MQTT_HINT:-MQTT_URL}"
  echo "MQTT ($MQTT_HOST:$MQTT_PORT) is up."
fi
if [ -n "${MQTT_TENANTS_URL:-}" ]; then
  ensure "Mosquitto with a user per tenant" mqtt_tenants_up start_mqtt_tenants "$MQTT_TENANTS_HOST" "$MQTT_TENANTS_PORT" "${SERVICES_MQTT_TENANTS_HINT:-MQTT_TENANTS_URL}"
  echo "Mosquitto with a user per tenant ($MQTT_TENANTS_HOST:$MQTT_TENANTS_PORT) is up."
fi
if [ -n "${REDIS_CLUSTER_PORT:-}" ]; then
  if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
    echo "A local Redis Cluster needs redis-server and redis-cli (Debian/Ubuntu: sudo apt install redis-server; macOS: brew install redis)." >&2
    exit 1
  fi
  bash "$(dirname "$0")/redis-cluster.sh" start "$REDIS_CLUSTER_PORT" "${TMPDIR:-/tmp}/punctual-redis-cluster-$REDIS_CLUSTER_PORT"
  echo "Redis Cluster (127.0.0.1:$REDIS_CLUSTER_PORT-$((REDIS_CLUSTER_PORT + 5))) is up."
fi
echo "Postgres ($PG_HOST:$PG_PORT) and Redis ($REDIS_HOST:$REDIS_PORT) are up."
