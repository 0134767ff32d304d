#!/usr/bin/env bash
# connect-fanout.sh: Filters/Watch fan-out on one catalogd (release, fresh SQLite store,
# 127.0.0.1:50051) with the Watch streams over gRPC against the same over Connect streaming
# (application/connect+json), in one run: N subscribers over K connections, M sequential
# Filters/Select calls (always gRPC), ROUNDS rounds alternating which protocol goes first.
# Prints each run, the medians of total_ms, p50 and p99 per protocol, and the p99 ratio
# Connect / gRPC.
#
# The client is the shared C client (../shared/peers/fanout), built into the scratch directory
# with one change: the Watch requests take their content type from FANOUT_WATCH_CT (the
# client sends one content type for every call, and a Select in a streaming content type is
# refused 415). Its framing reader takes Connect's messages as they are (the same 5-byte
# envelope); the streams stay open until the client closes them, so no end envelope is read.
# Environment (defaults): N=10000 K=100 M=1000 ROUNDS=3 TIMEOUT_S=600
# CATALOGD=path/to/catalogd measures another build (default: this one's release build).
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
peers=$root/../shared/peers
N=${N:-10000} K=${K:-100} M=${M:-1000} ROUNDS=${ROUNDS:-3} TIMEOUT_S=${TIMEOUT_S:-600}
cd "$root"
CATALOGD=${CATALOGD:-.build/release/catalogd}
[[ -n ${CATALOGD_BUILT:-} ]] || swift build -c release --product catalogd

source "$root/Benchmarks/lib/processes.sh"
sed 's|nva\[n++\] = mknv("content-type", opt.ct);|nva[n++] = mknv("content-type", strstr(path, "/Watch") \&\& getenv("FANOUT_WATCH_CT") ? getenv("FANOUT_WATCH_CT") : opt.ct);|' \
  "$peers/fanout/fanout.c" > "$tmpdir/fanout.c"
grep -q FANOUT_WATCH_CT "$tmpdir/fanout.c" || { echo "fanout.c changed: the Watch content type could not be patched in" >&2; exit 1; }
cc -O2 -Wall "$tmpdir/fanout.c" -lnghttp2 -o "$tmpdir/fanout"

# One client on 127.0.0.1 stands for many callers: it may hold every Watch slot.
"$CATALOGD" --address 127.0.0.1:50051 --database "$tmpdir/bench.sqlite" \
  --max-watch-subscribers-per-caller 100000 --max-watch-subscribers-per-connection 1024 \
  > "$tmpdir/catalogd.log" 2>&1 & pids+=($!)
ours=${pids[0]}
wait_port 50051 catalogd "$tmpdir/catalogd.log"

run() {  # run LABEL WATCH-CONTENT-TYPE
  FANOUT_WATCH_CT=$2 "$tmpdir/fanout" --target 127.0.0.1:50051 --content-type application/grpc --server-pid "$ours" \
    --timeout-s "$TIMEOUT_S" --subscribers "$N" --connections "$K" --changes "$M" 2> "$tmpdir/fanout.err" \
    | tee -a "$tmpdir/$1.jsonl" || { echo "fanout with $1 Watch streams failed:" >&2; cat "$tmpdir/fanout.err" >&2; exit 1; }
  echo
}
for round in $(seq "$ROUNDS"); do
  echo "# round $round: $N subscribers, $K connections, $M changes"
  if (( round % 2 )); then
    run grpc application/grpc; run connect application/connect+json
  else
    run connect application/connect+json; run grpc application/grpc
  fi
done

python3 - "$tmpdir" <<'PY'
import json, statistics, sys, os
d = sys.argv[1]
def load(name): return [json.loads(l) for l in open(os.path.join(d, name + ".jsonl")) if l.strip()]
med = lambda runs, key: statistics.median(r[key] for r in runs)
rows = {name: load(name) for name in ("grpc", "connect")}
print("watch     total_ms  p50_ms  p99_ms  converged  server_cpu_s")
for name, runs in rows.items():
    print(f"{name:9} {med(runs,'total_ms')!s:>8} {med(runs,'p50_ms')!s:>7} {med(runs,'p99_ms')!s:>7} "
          f"{min(r['converged'] for r in runs):>9} {med(runs,'server_cpu_measure_s')!s:>13}")
print(f"p99 ratio connect/grpc: {med(rows['connect'], 'p99_ms') / med(rows['grpc'], 'p99_ms'):.3f}, "
      f"per round: {[round(c['p99_ms'] / g['p99_ms'], 3) for c, g in zip(rows['connect'], rows['grpc'])]}")
PY
