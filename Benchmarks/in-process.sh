#!/usr/bin/env bash
# in-process.sh: a CatalogClient call's time through the InProcessTransport (CatalogTesting, the
# demo catalog in the benchmark's own process) against the same call through nghttp2 to a
# release catalogd on loopback (the demo catalog too): GetItem {"id":42}, N calls one after
# another, ROUNDS rounds taking turns going first; medians and their ratio. The benchmark is
# its own package (Benchmarks/ClientCalls) so that the main build stays lean.
# Environment (defaults): ROUNDS=5 N=20000 PORT=50073.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-5} n=${N:-20000} port=${PORT:-50073}
swift build -c release --product catalogd >&2
(cd Benchmarks/ClientCalls && swift build -c release >&2)
source Benchmarks/lib/processes.sh
.build/release/catalogd --address 127.0.0.1:$port --database "$tmpdir/catalog.sqlite" --seed-demo --log-level warning \
  >"$tmpdir/catalogd.log" 2>&1 &
pids+=($!)
wait_port "$port" catalogd "$tmpdir/catalogd.log"
Benchmarks/ClientCalls/.build/release/in-process-benchmark $port $rounds $n
