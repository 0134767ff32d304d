#!/usr/bin/env bash
# stream-memory.sh: a client stream of BYTES (default 1 GiB) in messages of 64 KiB into a handler
# that reads one message a millisecond (Benchmarks/ClientCalls, stream-memory-benchmark), over
# nghttp2 on loopback; prints each process's peak resident memory (VmHWM): flow control must hold
# the client back instead of either side buffering. Environment: BYTES=1073741824 PORT=50075.
set -euo pipefail
cd "$(dirname "$0")/.."
bytes=${BYTES:-1073741824} port=${PORT:-50075}
(cd Benchmarks/ClientCalls && swift build -c release --product stream-memory-benchmark >&2)
source Benchmarks/lib/processes.sh
bench=Benchmarks/ClientCalls/.build/release/stream-memory-benchmark
$bench server $port >"$tmpdir/server.log" 2>&1 &
pids+=($!)
wait_port "$port" server "$tmpdir/server.log"
$bench client $port $bytes
for _ in $(seq 100); do grep -q peak "$tmpdir/server.log" && break; sleep 0.1; done
grep peak "$tmpdir/server.log"
