#!/usr/bin/env bash
# Stops the services scripts/services.sh noted in FILE (SERVICES_STARTED_FILE) as started by it, and
# nothing else: a Postgres or Redis that was already running when it ran stays up. Then empties FILE.
set -uo pipefail
file=${1:?usage: stop-services.sh FILE}
[ -s "$file" ] || exit 0

mapfile -t lines <"$file"
for ((i = ${#lines[@]} - 1; i >= 0; i--)); do # the last started first
  read -r kind id <<<"${lines[i]}"
  case "$kind" in
    container) echo "Stopping the Docker container $id ..." && docker stop "$id" >/dev/null ;;
    cluster) echo "Stopping the local PostgreSQL cluster $id ..." && pg_ctlcluster --skip-systemctl-redirect "$id" main stop ;;
    pidfile) [ -f "$id" ] && echo "Stopping the process of $id ..." && kill -TERM "$(cat "$id")" ;;
    pid) echo "Stopping process $id ..." && kill -TERM "$id" ;;
  esac
done
: >"$file"
