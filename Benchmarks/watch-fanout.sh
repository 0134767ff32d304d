#!/usr/bin/env bash
# watch-fanout.sh: Filters/Watch fan-out of catalogd (release, fresh SQLite store, 127.0.0.1:50051)
# beside the grpc-swift-2 peer (127.0.0.1:50061), in one run, with the shared C client
# ../shared/peers/fanout (Watch streams, then sequential Filters/Select on filter "bench").
#   1. fan-out: N subscribers over K connections, M changes, ROUNDS rounds alternating
#      catalogd / grpc-swift2; prints each run and the medians of total_ms, p50 and p99, and the
#      p99 ratio catalogd / grpc-swift2;
#   2. one subscriber, LATENCY_M changes paced every LATENCY_INTERVAL_MS: p50/p99 of
#      Select-start-to-delivery on the same catalogd, after the fan-out, with the peer stopped
#      (a fresh catalogd each round: Benchmarks/one-subscriber.sh).
# Environment (defaults): N=10000 K=100 M=1000 ROUNDS=1 LATENCY_M=2000 LATENCY_INTERVAL_MS=1 TIMEOUT_S=600
# CATALOGD=path/to/catalogd measures another build (default: this one's release build).
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
peers=$root/../shared/peers
N=${N:-10000} K=${K:-100} M=${M:-1000} ROUNDS=${ROUNDS:-1}
LATENCY_M=${LATENCY_M:-2000} LATENCY_INTERVAL_MS=${LATENCY_INTERVAL_MS:-1} TIMEOUT_S=${TIMEOUT_S:-600}
cd "$root"
CATALOGD=${CATALOGD:-.build/release/catalogd}
swift build -c release --product catalogd
swift build -c release --package-path "$peers/grpc-swift2" --product peer-server
make -s -C "$peers/fanout"

source "$root/Benchmarks/lib/processes.sh"
# One client on 127.0.0.1 stands for many callers: it may hold every Watch slot.
"$CATALOGD" --address 127.0.0.1:50051 --database "$tmpdir/bench.sqlite" \
  --max-watch-subscribers-per-caller 100000 --max-watch-subscribers-per-connection 1024 \
  > "$tmpdir/catalogd.log" 2>&1 & pids+=($!)
ours=${pids[0]}
"$peers/grpc-swift2/.build/release/peer-server" --port 50061 > "$tmpdir/peer.log" 2>&1 & pids+=($!)
peer=${pids[1]}
wait_port 50051 catalogd "$tmpdir/catalogd.log"
wait_port 50061 grpc-swift2 "$tmpdir/peer.log"

run() {  # run LABEL PORT PID CONTENT-TYPE ARGS...
  local label=$1 port=$2 pid=$3 ct=$4; shift 4
  "$peers/fanout/fanout" --target "127.0.0.1:$port" --content-type "$ct" --server-pid "$pid" \
    --timeout-s "$TIMEOUT_S" "$@" 2> "$tmpdir/fanout.err" | tee -a "$tmpdir/$label.jsonl" || {
    echo "fanout against $label failed:" >&2; cat "$tmpdir/fanout.err" >&2; exit 1; }
  echo
}
for round in $(seq "$ROUNDS"); do
  echo "# round $round: $N subscribers, $K connections, $M changes"
  run catalogd 50051 "$ours" application/grpc --subscribers "$N" --connections "$K" --changes "$M"
  run grpc-swift2 50061 "$peer" application/grpc --subscribers "$N" --connections "$K" --changes "$M"
done
# Only catalogd runs while one subscriber is timed.
kill "$peer"; wait "$peer" 2>/dev/null || true
echo "# one subscriber, $LATENCY_M changes every $LATENCY_INTERVAL_MS ms"
run latency 50051 "$ours" application/grpc --subscribers 1 --connections 1 --changes "$LATENCY_M" --interval-ms "$LATENCY_INTERVAL_MS"

python3 - "$tmpdir" <<'PY'
import json, statistics, sys, os
d = sys.argv[1]
def load(name): return [json.loads(l) for l in open(os.path.join(d, name + ".jsonl")) if l.strip()]
med = lambda runs, key: statistics.median(r[key] for r in runs if r.get(key) is not None) if any(r.get(key) is not None for r in runs) else None
rows = {name: load(name) for name in ("catalogd", "grpc-swift2")}
print("target       total_ms  p50_ms  p99_ms  converged  server_cpu_s")
for name, runs in rows.items():
    print(f"{name:12} {med(runs,'total_ms')!s:>8} {med(runs,'p50_ms')!s:>7} {med(runs,'p99_ms')!s:>7} "
          f"{min(r['converged'] for r in runs):>9} {med(runs,'server_cpu_measure_s')!s:>13}")
ours, theirs = med(rows["catalogd"], "p99_ms"), med(rows["grpc-swift2"], "p99_ms")
print(f"p99 ratio catalogd/grpc-swift2: {ours / theirs:.3f}")
lat = load("latency")[0]
print(f"one subscriber: p50 {lat['p50_ms']} ms, p99 {lat['p99_ms']} ms, max {lat['max_ms']} ms, converged {lat['converged']}")
PY
