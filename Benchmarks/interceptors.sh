#!/usr/bin/env bash
# interceptors.sh: the cost of a chain of three client interceptors (a request id, logging whose
# level is dropped, metrics on the no-op backend) on a CatalogClient call through the
# InProcessTransport, where a call costs least: GetItem {"id":42}, N calls one after another,
# ROUNDS rounds taking turns going first; medians, their difference and ratio. Built with the
# in-process benchmark (Benchmarks/ClientCalls).
# Environment (defaults): ROUNDS=5 N=20000.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-5} n=${N:-20000}
(cd Benchmarks/ClientCalls && swift build -c release >&2)
Benchmarks/ClientCalls/.build/release/interceptor-benchmark $rounds $n
