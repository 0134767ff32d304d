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
tmp=$(mktemp -d); pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; wait 2>/dev/null; rm -rf $tmp' EXIT
.build/release/catalogd --address 127.0.0.1:$port --database $tmp/catalog.sqlite --seed-demo --log-level warning >/dev/null 2>&1 & pid=$!
for _ in $(seq 150); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
Benchmarks/ClientCalls/.build/release/in-process-benchmark $port $rounds $n
