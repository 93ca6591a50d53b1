#!/usr/bin/env bash
# `npm run dev`: everything a newcomer needs to run Punctual locally, in one command.
# `npm run dev -- --watch` runs the apps from the TypeScript sources instead of a build, and restarts
# each when a file it loaded changes (type errors are `npm run lint:types`'s business, not the loop's).
set -euo pipefail
cd "$(dirname "$0")/.."
watch=false
case "${1:-}" in
  --watch) watch=true ;;
  '') ;;
  *) echo "usage: npm run dev [-- --watch]" >&2 && exit 2 ;;
esac

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

# What services.sh starts (and only that) is stopped again when this stops.
SERVICES_STARTED_FILE="$(mktemp "${TMPDIR:-/tmp}/punctual-dev-services.XXXXXX")"
export SERVICES_STARTED_FILE
trap 'bash scripts/stop-services.sh "$SERVICES_STARTED_FILE"; rm -f "$SERVICES_STARTED_FILE"' EXIT
bash scripts/services.sh
if $watch; then
  run=(node --watch --max-semi-space-size=64 -r ts-node/register/transpile-only -r tsconfig-paths/register)
  api=apps/api/src/main.ts worker=apps/worker/src/main.ts
else
  npm run -s build
  run=(node --max-semi-space-size=64)
  api=dist/apps/api/src/main.js worker=dist/apps/worker/src/main.js
fi
npm run -s migration:run

# The API prints where everything is once it listens; press Ctrl+C to stop.
SETSID=$(command -v setsid || true) # macOS has none: there Ctrl+C reaches the apps directly
prefixed() { # label command... → runs it with each output line prefixed
  local label=$1
  shift
  # The apps run in a session of their own and the prefixers ignore SIGINT: Ctrl+C reaches the
  # apps once, through stop below, and their shutdown lines still get printed.
  exec ${SETSID:-} "$@" > >(trap '' INT && exec sed -u "s/^/[$label] /") 2> >(trap '' INT && exec sed -u "s/^/[$label] /" >&2)
}

prefixed api "${run[@]}" "$api" &
api_pid=$!
prefixed worker "${run[@]}" "$worker" &
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
