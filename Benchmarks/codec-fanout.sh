#!/usr/bin/env bash
# codec-fanout.sh: Filters/Watch fan-out in JSON against the same in CBOR, on one catalogd
# (release, fresh SQLite store, 127.0.0.1:50051), with the CatalogClient fan-out client
# (Benchmarks/ClientFanout, its own package, which builds catalogd too so that NIO is compiled
# once): N Watch subscribers over K connections on filter "bench", then M sequential Selects;
# a change's latency is its Select's start to its arrival at each subscriber. ROUNDS rounds,
# each a JSON run then a CBOR run. Prints each run (one JSON line), then the medians of p50, p99,
# total_ms and the CPU of catalogd and of the client per codec, whether every subscriber
# converged in every run, and the p99 ratio CBOR / JSON. The client decodes every subscriber's
# events on the same cores as catalogd: with many subscribers its decoding, more than catalogd's
# encoding (done once per change and codec), sets the latency; compare the two CPU columns.
# Environment (defaults): N=1000 K=10 M=200 ROUNDS=3 TIMEOUT_S=120
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
N=${N:-1000} K=${K:-10} M=${M:-200} ROUNDS=${ROUNDS:-3} TIMEOUT_S=${TIMEOUT_S:-120}
cd "$root/Benchmarks/ClientFanout"
swift build -c release --product catalogd >&2
swift build -c release --product client-fanout >&2
bin=$(swift build -c release --show-bin-path)

source "$root/Benchmarks/lib/processes.sh"
# One client on 127.0.0.1 stands for many callers: it may hold every Watch slot.
"$bin/catalogd" --address 127.0.0.1:50051 --database "$tmpdir/bench.sqlite" --log-level warning \
  --max-watch-subscribers-per-caller 100000 --max-watch-subscribers-per-connection 1024 \
  > "$tmpdir/catalogd.log" 2>&1 & pids+=($!)
server=$!
wait_port 50051 catalogd "$tmpdir/catalogd.log"

echo "# $(nproc) cores, $N subscribers over $K connections, $M changes, $ROUNDS rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
  for codec in json cbor; do
    "$bin/client-fanout" --codec "$codec" --port 50051 --subscribers "$N" --connections "$K" --changes "$M" \
      --timeout-s "$TIMEOUT_S" --server-pid "$server" | tee -a "$tmpdir/$codec.jsonl" \
      || { echo "client-fanout in $codec failed (round $round); catalogd's log:" >&2; tail -n 20 "$tmpdir/catalogd.log" >&2; exit 1; }
  done
done

python3 - "$tmpdir" <<'PY'
import json, os, statistics, sys
d = sys.argv[1]
runs = {c: [json.loads(l) for l in open(os.path.join(d, c + ".jsonl")) if l.strip()] for c in ("json", "cbor")}
med = lambda rs, key: statistics.median(r[key] for r in rs)
print("# medians")
print("codec  runs  p50_ms  p99_ms  max_ms  total_ms  server_cpu_s  client_cpu_s  all converged")
for codec, rs in runs.items():
    print(f"{codec:6} {len(rs):4} {med(rs, 'p50_ms'):7.2f} {med(rs, 'p99_ms'):7.2f} {med(rs, 'max_ms'):7.2f} "
          f"{med(rs, 'total_ms'):9.1f} {med(rs, 'server_cpu_s'):13.3f} {med(rs, 'client_cpu_s'):13.3f}  "
          f"{'yes' if all(r['all_converged'] for r in rs) else 'NO'}")
print(f"p99 ratio cbor/json: {med(runs['cbor'], 'p99_ms') / med(runs['json'], 'p99_ms'):.3f}")
PY
