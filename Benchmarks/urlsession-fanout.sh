#!/usr/bin/env bash
# urlsession-fanout.sh: Filters/Watch fan-out with the Watch streams over URLSessionTransport
# (Connect streaming, HTTP/1.1 through URLSession, which is libcurl on Linux: one connection a
# stream) against the same over the nghttp2 transport (gRPC, HTTP/2: the streams of a client
# share its connection), on one catalogd (release, fresh SQLite store, 127.0.0.1:50051), with
# the CatalogClient fan-out client (Benchmarks/ClientFanout): N subscribers over K clients
# (HTTP/2 connections, or URLSessions), then M sequential Selects over nghttp2; a change's
# latency is its Select's start to its arrival at each subscriber. ROUNDS rounds, the two
# transports taking turns going first. Prints each run (one JSON line), then the medians of p50,
# p99, total_ms and the CPU of catalogd and of the client per transport, whether every subscriber
# converged in every run, and the p99 ratio URLSession / nghttp2.
# Environment (defaults): N=1000 K=10 M=200 ROUNDS=3 CODEC=json TIMEOUT_S=120; BIN=DIR takes
# catalogd and client-fanout from DIR, release builds made before, instead of building them.
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
N=${N:-1000} K=${K:-10} M=${M:-200} ROUNDS=${ROUNDS:-3} CODEC=${CODEC:-json} TIMEOUT_S=${TIMEOUT_S:-120}
cd "$root/Benchmarks/ClientFanout"
if [[ -n ${BIN:-} ]]; then
  bin=$BIN
else
  swift build -c release --product catalogd >&2
  swift build -c release --product client-fanout >&2
  bin=$(swift build -c release --show-bin-path)
fi

source "$root/Benchmarks/lib/processes.sh"
# One client on 127.0.0.1 stands for many callers: it may hold every Watch slot, and over
# HTTP/1.1 a connection for each.
"$bin/catalogd" --address 127.0.0.1:50051 --database "$tmpdir/bench.sqlite" --log-level warning \
  --max-watch-subscribers-per-caller 100000 --max-watch-subscribers-per-connection 1024 \
  --max-connections-per-peer 100000 > "$tmpdir/catalogd.log" 2>&1 & pids+=($!)
server=$!
wait_port 50051 catalogd "$tmpdir/catalogd.log"

run() {  # run TRANSPORT
  "$bin/client-fanout" --transport "$1" --codec "$CODEC" --port 50051 --subscribers "$N" --connections "$K" \
    --changes "$M" --timeout-s "$TIMEOUT_S" --server-pid "$server" | tee -a "$tmpdir/$1.jsonl" \
    || { echo "client-fanout over $1 failed; catalogd's log:" >&2; tail -n 20 "$tmpdir/catalogd.log" >&2; exit 1; }
}
echo "# $(nproc) cores, $N subscribers over $K clients, $M changes, $CODEC, $ROUNDS rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
  if (( round % 2 )); then run nghttp2; run urlsession; else run urlsession; run nghttp2; fi
done

python3 - "$tmpdir" <<'PY'
import json, os, statistics, sys
d = sys.argv[1]
runs = {t: [json.loads(l) for l in open(os.path.join(d, t + ".jsonl")) if l.strip()] for t in ("nghttp2", "urlsession")}
med = lambda rs, key: statistics.median(r[key] for r in rs)
print("# medians")
print("transport   runs  p50_ms  p99_ms  max_ms  total_ms  server_cpu_s  client_cpu_s  all converged")
for transport, rs in runs.items():
    print(f"{transport:11} {len(rs):4} {med(rs, 'p50_ms'):7.2f} {med(rs, 'p99_ms'):7.2f} {med(rs, 'max_ms'):7.2f} "
          f"{med(rs, 'total_ms'):9.1f} {med(rs, 'server_cpu_s'):13.3f} {med(rs, 'client_cpu_s'):13.3f}  "
          f"{'yes' if all(r['all_converged'] for r in rs) else 'NO'}")
ratios = [round(u['p99_ms'] / n['p99_ms'], 3) for u, n in zip(runs['urlsession'], runs['nghttp2'])]
print(f"p99 ratio urlsession/nghttp2: {med(runs['urlsession'], 'p99_ms') / med(runs['nghttp2'], 'p99_ms'):.3f}, per round: {ratios}")
PY
