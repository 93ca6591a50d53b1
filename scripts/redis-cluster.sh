#!/usr/bin/env bash
# A local Redis Cluster of six nodes (three masters, each with a replica) on ports FIRST..FIRST+5,
# each node's files (config, pid, log) in DIR/<port>. For tests and the soak; not a deployment.
#   redis-cluster.sh start FIRST DIR    starts the nodes that are not running and forms the cluster once
#   redis-cluster.sh own FIRST DIR      the same, after shutting down nodes on these ports that another
#                                       directory's run left behind (a killed test's), for a cluster of its own
#   redis-cluster.sh node FIRST DIR P   starts node P alone (again, after it was killed): it rejoins
#   redis-cluster.sh stop FIRST DIR     stops the nodes by their pid files
# A replica takes over 2 s after its master stops answering (cluster-node-timeout), however long ago
# it last heard from it (cluster-replica-validity-factor 0), so tests need not wait long.
set -euo pipefail

command=${1:?usage: redis-cluster.sh start|own|node|stop FIRST DIR [PORT]}
first=${2:?first port}
dir=${3:?directory}
ports=$(seq "$first" $((first + 5)))

ping() { [ "$(redis-cli -h 127.0.0.1 -p "$1" ping 2>/dev/null)" = PONG ]; }
cluster_ok() { redis-cli -h 127.0.0.1 -p "$1" cluster info 2>/dev/null | grep -q '^cluster_state:ok'; }
wait_until() { # seconds command... → true once command succeeds
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.2
  done
}

start_node() {
  local port=$1
  mkdir -p "$dir/$port"
  ping "$port" && return 0
  redis-server --port "$port" --bind 127.0.0.1 --daemonize yes \
    --cluster-enabled yes --cluster-config-file "$dir/$port/nodes.conf" --cluster-node-timeout 2000 \
    --cluster-replica-validity-factor 0 --save '' --appendonly no --repl-diskless-sync-delay 0 --dir "$dir/$port" --pidfile "$dir/$port/redis.pid" --logfile "$dir/$port/redis.log"
  wait_until 10 ping "$port" || { echo "Redis node $port did not start; see $dir/$port/redis.log" >&2; return 1; }
}

# Healthy: every node sees every slot served, and every replica holds its master's data (only a
# replica that has synced can take over from its master).
synced() { ! redis-cli -h 127.0.0.1 -p "$1" info replication 2>/dev/null | grep -q '^master_link_status:down'; }
all_ok() {
  for port in $ports; do cluster_ok "$port" && synced "$port" || return 1; done
}

closed() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

stop_nodes() {
  for port in $ports; do
    local pidfile="$dir/$port/redis.pid"
    if [ -f "$pidfile" ]; then kill "$(cat "$pidfile")" 2>/dev/null || true; fi
  done
  for port in $ports; do wait_until 10 closed "$port" || true; done
}

# A node answering on the port that this directory never configured belongs to an earlier run elsewhere.
replace_stranger() {
  local port=$1
  if ! ping "$port" || [ -f "$dir/$port/nodes.conf" ]; then return 0; fi
  redis-cli -h 127.0.0.1 -p "$port" shutdown nosave >/dev/null 2>&1 || true
  wait_until 10 closed "$port" || { echo "A Redis node left on port $port by an earlier run did not stop" >&2; return 1; }
}

case "$command" in
  start | own)
    if [ "$command" = own ]; then for port in $ports; do replace_stranger "$port"; done; fi
    for port in $ports; do start_node "$port"; done
    # Nodes that remember a cluster (nodes.conf) form it again by themselves.
    if ! wait_until 8 all_ok; then
      if [ "$(redis-cli -h 127.0.0.1 -p "$first" cluster info | sed -n 's/^cluster_known_nodes:\([0-9]*\).*/\1/p')" != 1 ]; then
        # A half-formed cluster from an earlier machine state: start afresh.
        stop_nodes
        rm -rf "${dir:?}"/*
        for port in $ports; do start_node "$port"; done
      fi
      # shellcheck disable=SC2046
      redis-cli --cluster create $(for port in $ports; do printf '127.0.0.1:%s ' "$port"; done) --cluster-replicas 1 --cluster-yes >"$dir/create.log"
      wait_until 30 all_ok || { echo "The Redis Cluster on $first-$((first + 5)) did not become healthy; see $dir/create.log" >&2; exit 1; }
    fi
    ;;
  node)
    start_node "${4:?port}"
    wait_until 30 synced "$4" || { echo "Redis node $4 did not sync with its master; see $dir/$4/redis.log" >&2; exit 1; }
    ;;
  stop)
    stop_nodes
    ;;
  *)
    echo "usage: redis-cluster.sh start|own|node|stop FIRST DIR [PORT]" >&2
    exit 2
    ;;
esac
