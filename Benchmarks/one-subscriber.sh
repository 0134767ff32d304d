#!/usr/bin/env bash
# one-subscriber.sh: a change's latency to one Filters/Watch subscriber (the target is a 1 ms
# p99), beside what this machine allows the same shape of path with no server code at all.
# Alternating rounds of:
#   catalogd  a fresh catalogd (release, new SQLite file, 127.0.0.1:50051), then the shared C
#             client: `fanout --subscribers 1 --connections 1 --changes M --interval-ms 1`
#             (Select start to delivery on the Watch stream);
#   floor     Benchmarks/LatencyFloor/latency-floor.c: a client sends a byte every 1 ms on
#             loopback TCP, one server thread works FLOOR_WORK_US µs and wakes a second through
#             an eventfd, which answers on another connection (no HTTP/2, JSON or SQLite);
#   shaped    the same program with catalogd's own costs per hop (SHAPED_ARGS, as measured with
#             probes in catalogd: the write before the publish, the delivery, the client's work
#             for the response and the event, and the Select's response to the client).
# Prints each run and the medians of p50 and p99 per target.
# Environment (defaults): ROUNDS=5 M=2000 FLOOR_WORK_US=250
# CATALOGD=path/to/catalogd measures another build (default: this one's release build).
#   SHAPED_ARGS="--work-us 200 --delivery-us 90 --client-us 110 --respond"
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
peers=$root/../shared/peers
ROUNDS=${ROUNDS:-5} M=${M:-2000} FLOOR_WORK_US=${FLOOR_WORK_US:-250}
SHAPED_ARGS=${SHAPED_ARGS:---work-us 200 --delivery-us 90 --client-us 110 --respond}
cd "$root"
CATALOGD=${CATALOGD:-.build/release/catalogd}
swift build -c release --product catalogd
make -s -C "$peers/fanout"
source "$root/Benchmarks/lib/processes.sh"
cc -O2 -Wall -pthread Benchmarks/LatencyFloor/latency-floor.c -o "$tmpdir/latency-floor"

for round in $(seq "$ROUNDS"); do
  "$CATALOGD" --address 127.0.0.1:50051 --database "$tmpdir/round$round.sqlite" \
    > "$tmpdir/catalogd.log" 2>&1 & pids+=($!)
  pid=$!
  wait_port 50051 catalogd "$tmpdir/catalogd.log"
  "$peers/fanout/fanout" --target 127.0.0.1:50051 --content-type application/grpc+json --server-pid "$pid" \
    --timeout-s 120 --subscribers 1 --connections 1 --changes "$M" --interval-ms 1 2> "$tmpdir/fanout.err" \
    | tee -a "$tmpdir/catalogd.jsonl" || { echo "fanout failed:" >&2; cat "$tmpdir/fanout.err" >&2; exit 1; }
  echo
  kill "$pid"; wait "$pid" 2>/dev/null || true
  "$tmpdir/latency-floor" --changes "$M" --work-us "$FLOOR_WORK_US" | tee -a "$tmpdir/floor.jsonl"
  # shellcheck disable=SC2086 # SHAPED_ARGS is a list of flags
  "$tmpdir/latency-floor" --changes "$M" $SHAPED_ARGS | tee -a "$tmpdir/shaped.jsonl"
done

python3 - "$tmpdir" <<'PY'
import json, statistics, sys, os
d = sys.argv[1]
print("target     runs  p50_ms (median)  p99_ms (median)  p99 of each run")
for name in ("catalogd", "floor", "shaped"):
    runs = [json.loads(l) for l in open(os.path.join(d, name + ".jsonl")) if l.strip()]
    p99s = [r["p99_ms"] for r in runs]
    print(f"{name:10} {len(runs):4} {statistics.median(r['p50_ms'] for r in runs):16.2f} "
          f"{statistics.median(p99s):16.2f}  {' '.join(f'{p:.2f}' for p in p99s)}")
PY
