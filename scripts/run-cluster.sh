#!/usr/bin/env bash
# run-cluster.sh: a catalog served by several catalogd replicas, to try fail-over by hand.
# Sets up the machine, builds catalogd (release), then starts in the foreground:
#   - a throwaway PostgreSQL (a Unix socket in a temporary directory),
#   - REPLICAS catalogd replicas on 127.0.0.1:FIRST_PORT, FIRST_PORT+1, … serving it,
#   - nghttpx, an HTTP/2 load balancer, on 127.0.0.1:PORT, spreading calls over the replicas.
# Prints each process's PID, then waits; Ctrl-C (or SIGTERM) stops everything and removes the
# directory. Kill a replica (kill -9 PID) and the balancer sends new calls to the others.
# Environment: PORT=50051 FIRST_PORT=50061 REPLICAS=3 (or REPLICA_PORTS="P1 P2 …" for the
# replicas' ports); SEED_DEMO=1 seeds the demo catalog; CATALOGD=path runs that binary instead
# of building one.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-50051} FIRST_PORT=${FIRST_PORT:-50061} REPLICAS=${REPLICAS:-3}
REPLICA_PORTS=${REPLICA_PORTS:-$(seq -s ' ' "$FIRST_PORT" $((FIRST_PORT + REPLICAS - 1)))}
if [ -z "${CATALOGD:-}" ]; then
  scripts/setup.sh >&2
  swift build -c release --product catalogd >&2
  CATALOGD=.build/release/catalogd
fi
. scripts/postgres.sh

dir=$(mktemp -d) pgdir=$(mktemp -d)
pids=()
stop() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pg_cluster_stop "$pgdir"
  rm -rf "$dir" "$pgdir"
}
trap stop EXIT
trap 'exit 0' INT TERM

pg_cluster_start "$pgdir"
echo "postgresql: $PG_URL"

# wait_ready LOG PID: until the log holds catalogd's ready line.
wait_ready() {
  for _ in $(seq 300); do
    grep -q "catalogd ready on" "$1" && return 0
    kill -0 "$2" 2>/dev/null || break
    sleep 0.1
  done
  echo "catalogd did not start; its log:" >&2; cat "$1" >&2; exit 1
}

backends=()
i=0
for port in $REPLICA_PORTS; do
  seed=()
  if [ "$i" = 0 ] && [ -n "${SEED_DEMO:-}" ]; then seed=(--seed-demo); fi
  "$CATALOGD" --address "127.0.0.1:$port" --database "$PG_URL" "${seed[@]}" >"$dir/replica-$i.log" 2>&1 &
  pids+=($!)
  wait_ready "$dir/replica-$i.log" "$!"
  echo "replica $i: 127.0.0.1:$port pid $! (log $dir/replica-$i.log)"
  backends+=(-b "127.0.0.1,$port;;proto=h2")
  i=$((i + 1))
done

# nghttpx: cleartext HTTP/2 in front, HTTP/2 to each replica; a replica that stops answering
# is left out until it answers again.
nghttpx --conf=/dev/null --frontend="127.0.0.1,$PORT;no-tls" "${backends[@]}" --no-ocsp --no-server-push \
  --workers=1 --backend-connect-timeout=1s --accesslog-file=/dev/null --errorlog-file="$dir/nghttpx.log" &
pids+=($!)
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.1; done
echo "load balancer: 127.0.0.1:$PORT pid $! (nghttpx)"
echo "cluster ready: catalog --server 127.0.0.1:$PORT …, or CatalogClient with every replica's address"
# Until interrupted, or the balancer dies; replicas may come and go.
wait "${pids[-1]}" || true
