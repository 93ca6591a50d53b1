#!/usr/bin/env bash
# Runs before `npm test`: makes sure the Postgres, Redis, Redis Cluster, NATS, RabbitMQ and MQTT broker of the test run answer, starting local
# ones the way `npm run dev` does or saying what to install, instead of a wall of ECONNREFUSED, and
# that a Chromium is there for the console's browser specs.
# The URLs come from test/test-env.ts (TEST_DATABASE_URL / TEST_REDIS_URL, else its defaults) and
# TEST_NATS_URL (else nats://127.0.0.1:4222, as test/support/nats.ts reads it), and TEST_NATS_TENANTS_URL (else
# nats://127.0.0.1:4223: a NATS server with a user per tenant, config/nats/tenants.conf), TEST_RABBITMQ_URL (else
# amqp://127.0.0.1:5672, with the tenants of config/rabbitmq/tenants.sh), TEST_MQTT_URL (else mqtt://127.0.0.1:1883) and
# TEST_MQTT_TENANTS_URL (else mqtt://127.0.0.1:1884: a Mosquitto with the users of config/mosquitto/acl), as test/support/brokers.ts reads them.
set -euo pipefail
cd "$(dirname "$0")/.."

read -r DATABASE_URL REDIS_URL < <(
  node -r ts-node/register/transpile-only -r tsconfig-paths/register -e "require('./test/test-env'); console.log(process.env.DATABASE_URL, process.env.REDIS_URL)"
)
NATS_URL="${TEST_NATS_URL:-nats://127.0.0.1:4222}"
NATS_TENANTS_URL="${TEST_NATS_TENANTS_URL:-nats://127.0.0.1:4223}"
RABBITMQ_URL="${TEST_RABBITMQ_URL:-amqp://127.0.0.1:5672}"
MQTT_URL="${TEST_MQTT_URL:-mqtt://127.0.0.1:1883}"
MQTT_TENANTS_URL="${TEST_MQTT_TENANTS_URL:-mqtt://127.0.0.1:1884}"
# The e2e-cluster tier runs on a local Redis Cluster (test/on-redis-cluster.ts), unless TEST_REDIS_CLUSTER_NODES names one.
if [ -z "${TEST_REDIS_CLUSTER_NODES:-}" ]; then export REDIS_CLUSTER_PORT=7000; fi
export DATABASE_URL REDIS_URL NATS_URL NATS_TENANTS_URL RABBITMQ_URL MQTT_URL MQTT_TENANTS_URL SERVICES_DATABASE_HINT=TEST_DATABASE_URL SERVICES_REDIS_HINT=TEST_REDIS_URL \
  SERVICES_NATS_HINT=TEST_NATS_URL SERVICES_NATS_TENANTS_HINT=TEST_NATS_TENANTS_URL SERVICES_RABBITMQ_HINT=TEST_RABBITMQ_URL SERVICES_MQTT_HINT=TEST_MQTT_URL \
  SERVICES_MQTT_TENANTS_HINT=TEST_MQTT_TENANTS_URL

# The console's specs drive Debian's chromium package (test/support/console-browser.ts), installed
# here when missing if this user can; CHROMIUM_PATH points them at another Chromium or Chrome instead.
if [ -n "${CHROMIUM_PATH:-}" ]; then
  if [ ! -x "$CHROMIUM_PATH" ]; then
    echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable Chromium; the console's browser specs need one." >&2
    exit 1
  fi
elif [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing chromium for the console's browser specs ..."
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium
  else
    cat >&2 <<MSG
Chromium is not installed at /usr/bin/chromium, and the console's browser specs need it.
Install it (Debian/Ubuntu: sudo apt-get install chromium), or set CHROMIUM_PATH to a Chromium or Chrome binary.
MSG
    exit 1
  fi
fi

exec bash scripts/services.sh
