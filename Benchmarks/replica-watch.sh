#!/usr/bin/env bash
# replica-watch.sh: Filters/Watch across catalogd replicas on PostgreSQL, beside one catalogd on
# SQLite, in one run (targets alternate round by round, each round on fresh servers).
#
# 1. Latency of one change (Benchmarks/ReplicaLatency/replica_latency.py, grpcio: LATENCY_M
#    Selects one at a time, 1 ms apart; Select start to the Watch event):
#      sqlite          Select and Watch on one catalogd on SQLite;
#      postgres-same   Select and Watch on the same replica;
#      postgres-cross  Select on replica A, Watch on replica B.
# 2. Fan-out (the shared C client, ../shared/peers/fanout: N Watch subscribers over K
#    connections, M Selects back to back, latency of every change at every subscriber):
#      sqlite          one catalogd on SQLite, the client connected to it;
#      sqlite-nghttpx  the same behind nghttpx, to show the balancer's own cost;
#      postgres-3      three replicas behind nghttpx, which spreads the Watch streams and the
#                      Selects over them per request: every replica serves N/3 subscribers and
#                      makes about M/3 of the changes.
# Prints each run as a JSON line, then medians of p50 and p99.
# Environment: ROUNDS=3 LATENCY_M=2000 N=9000 K=90 M=1000 TIMEOUT_S=600.
# CATALOGD=path/to/catalogd measures another build (default: this one's release build).
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
peers=$root/../shared/peers
ROUNDS=${ROUNDS:-3} LATENCY_M=${LATENCY_M:-2000} N=${N:-9000} K=${K:-90} M=${M:-1000} TIMEOUT_S=${TIMEOUT_S:-600}
cd "$root"
CATALOGD=${CATALOGD:-.build/release/catalogd}
swift build -c release --product catalogd >&2
make -s -C "$peers/fanout"
source Benchmarks/lib/processes.sh
source scripts/postgres.sh
pgdir=$(mktemp -d)
trap 'cleanup; pg_cluster_stop "$pgdir"; rm -rf "$pgdir"' EXIT
pg_cluster_start "$pgdir"
psql_admin() { pg_as "$(pg_bin)/psql" -h "$pgdir" -U catalog -d postgres -XAq -c "$1"; }

# serve KIND ROUND: starts the servers of one target (KIND sqlite or postgres) on fresh stores;
# catalogd on 127.0.0.1:50081 (and, for postgres, 50082, 50083), their PIDs in `round_pids`.
serve() {
  round_pids=()
  local database=$tmpdir/${2:-}.sqlite ports=(50081)
  if [ "$1" = postgres ]; then
    psql_admin "DROP DATABASE IF EXISTS bench WITH (FORCE)"
    psql_admin "CREATE DATABASE bench"
    database="postgresql://catalog@/bench?host=$pgdir" ports=(50081 50082 50083)
  fi
  for port in "${ports[@]}"; do
    "$CATALOGD" --address "127.0.0.1:$port" --database "$database" --log-level warning \
      --max-watch-subscribers-per-caller 100000 --max-watch-subscribers-per-connection 100000 \
      --max-concurrent-streams 20000 > "$tmpdir/catalogd-$port.log" 2>&1 &
    pids+=($!) round_pids+=($!)
    wait_port "$port" "catalogd $port" "$tmpdir/catalogd-$port.log"
  done
}

# balance PORT...: nghttpx on 127.0.0.1:50080 in front of the ports.
balance() {
  local backends=()
  for port in "$@"; do backends+=(-b "127.0.0.1,$port;;proto=h2"); done
  nghttpx --conf=/dev/null --frontend="127.0.0.1,50080;no-tls" "${backends[@]}" --no-ocsp --no-server-push --workers=1 \
    --accesslog-file=/dev/null --errorlog-file="$tmpdir/nghttpx.log" & pids+=($!) round_pids+=($!)
  wait_port 50080 nghttpx "$tmpdir/nghttpx.log"
}

stop_round() {
  for pid in "${round_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${round_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}

latency() {  # latency LABEL SELECT-PORT WATCH-PORT
  python3 Benchmarks/ReplicaLatency/replica_latency.py --select "127.0.0.1:$2" --watch "127.0.0.1:$3" \
    --changes "$LATENCY_M" | sed "s/^{/{\"target\": \"$1\", /" | tee -a "$tmpdir/latency.jsonl"
}

fanout() {  # fanout LABEL PORT
  "$peers/fanout/fanout" --target "127.0.0.1:$2" --content-type application/grpc+json --timeout-s "$TIMEOUT_S" \
    --subscribers "$N" --connections "$K" --changes "$M" 2> "$tmpdir/fanout.err" \
    | sed "s/^{/{\"target\": \"$1\", /" | tee -a "$tmpdir/fanout.jsonl" \
    || { echo "fanout failed:" >&2; cat "$tmpdir/fanout.err" >&2; exit 1; }
}

echo "# $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); latency: $LATENCY_M changes; fan-out: N=$N K=$K M=$M; $ROUNDS rounds"
for round in $(seq "$ROUNDS"); do
  serve sqlite "latency$round"; latency sqlite 50081 50081; stop_round
  serve postgres; latency postgres-same 50081 50081; latency postgres-cross 50081 50082; stop_round
  serve sqlite "fanout$round"; fanout sqlite 50081; stop_round
  serve sqlite "fanout-nghttpx$round"; balance 50081; fanout sqlite-nghttpx 50080; stop_round
  serve postgres; balance 50081 50082 50083; fanout postgres-3 50080; stop_round
done

median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
field() { grep "\"target\": \"$2\"" "$1" | sed "s/.*\"$3\": *\([0-9.]*\).*/\1/" | median; }
echo "# medians"
for target in sqlite postgres-same postgres-cross; do
  printf "latency %-16s p50 %6s ms  p99 %6s ms\n" "$target" "$(field "$tmpdir/latency.jsonl" $target p50_ms)" \
    "$(field "$tmpdir/latency.jsonl" $target p99_ms)"
done
for target in sqlite sqlite-nghttpx postgres-3; do
  printf "fan-out %-16s p50 %6s ms  p99 %6s ms  total %7s ms  converged %s\n" "$target" \
    "$(field "$tmpdir/fanout.jsonl" $target p50_ms)" "$(field "$tmpdir/fanout.jsonl" $target p99_ms)" \
    "$(field "$tmpdir/fanout.jsonl" $target total_ms)" "$(field "$tmpdir/fanout.jsonl" $target converged)"
done
