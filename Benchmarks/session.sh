#!/usr/bin/env bash
# session.sh: a filter action's round trip on an open Filters/Session (sent, answered by its
# tagged change) against the unary Filters/Select on the same connection, to one release
# catalogd on loopback (SQLite): N actions one after another, ROUNDS rounds taking turns going
# first; medians and their ratio session / select. The benchmark is its own package
# (Benchmarks/ClientCalls) so that the main build stays lean.
# Environment (defaults): ROUNDS=5 N=5000 PORT=50076.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-5} n=${N:-5000} port=${PORT:-50076}
swift build -c release --product catalogd >&2
(cd Benchmarks/ClientCalls && swift build -c release --product session-benchmark >&2)
source Benchmarks/lib/processes.sh
.build/release/catalogd --address 127.0.0.1:$port --database "$tmpdir/catalog.sqlite" --log-level warning \
  >"$tmpdir/catalogd.log" 2>&1 &
pids+=($!)
wait_port "$port" catalogd "$tmpdir/catalogd.log"
Benchmarks/ClientCalls/.build/release/session-benchmark $port $rounds $n
