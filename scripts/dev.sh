#!/usr/bin/env bash
# `npm run dev`: everything a newcomer needs to run Punctual locally, in one command.
set -euo pipefail
cd "$(dirname "$0")/.."

# Node 26, installed from the npm registry when this machine's node is older: the install, build and apps run on it.
. scripts/node-runtime.sh
[ -d node_modules ] || { echo "Installing dependencies ..."; npm ci --no-audit --no-fund; }
if [ ! -f .env ]; then
  cp .env.example .env
  echo "Created .env from .env.example (edit it to change API keys, ports, ...)."
fi
set -a
# shellcheck disable=SC1091
. ./.env
set +a

bash scripts/services.sh
npm run -s build
npm run -s migration:run

PORT="${PORT:-3000}"
cat <<MSG

Punctual is starting:
  API       http://localhost:$PORT
  API docs  http://localhost:$PORT/docs
  Admin UI  http://localhost:$PORT/admin/queues  (user ${ADMIN_USER:-admin}, password from .env)
  Health    http://localhost:$PORT/health/ready  (worker: http://localhost:${WORKER_HTTP_PORT:-9464}/health/ready)
  Metrics   http://localhost:$PORT/metrics       (worker: http://localhost:${WORKER_HTTP_PORT:-9464}/metrics)
Press Ctrl+C to stop.

MSG

prefixed() { # label command... → runs it with each output line prefixed
  local label=$1
  shift
  exec "$@" > >(sed -u "s/^/[$label] /") 2> >(sed -u "s/^/[$label] /" >&2)
}

prefixed api node --max-semi-space-size=64 dist/apps/api/src/main.js &
api_pid=$!
prefixed worker node --max-semi-space-size=64 dist/apps/worker/src/main.js &
worker_pid=$!

stop() {
  kill -TERM "$api_pid" "$worker_pid" 2>/dev/null || true
  wait "$api_pid" "$worker_pid" 2>/dev/null || true
}
trap 'stop; exit 0' INT TERM
# When either process exits, stop the other too.
wait -n "$api_pid" "$worker_pid" || true
stop
exit 1
