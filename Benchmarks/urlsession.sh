#!/usr/bin/env bash
# urlsession.sh: a CatalogClient call's time over URLSessionTransport (Connect unary, JSON, over
# HTTP/1.1 through URLSession, which is libcurl on Linux) against the same call over nghttp2
# (gRPC over HTTP/2), both to one release catalogd on loopback with the demo catalog:
# GetItem {"id":42}, N calls one after another, ROUNDS rounds taking turns going first; medians
# and their ratio. The benchmark is its own package (Benchmarks/ClientCalls) so that the main
# build stays lean.
# Environment (defaults): ROUNDS=5 N=5000 PORT=50074.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-5} n=${N:-5000} port=${PORT:-50074}
swift build -c release --product catalogd >&2
(cd Benchmarks/ClientCalls && swift build -c release >&2)
source Benchmarks/lib/processes.sh
.build/release/catalogd --address 127.0.0.1:$port --database "$tmpdir/catalog.sqlite" --seed-demo --log-level warning \
  >"$tmpdir/catalogd.log" 2>&1 &
pids+=($!)
wait_port "$port" catalogd "$tmpdir/catalogd.log"
Benchmarks/ClientCalls/.build/release/urlsession-benchmark $port $rounds $n
