#!/usr/bin/env bash
# json-encoding.sh: JSONCodec's streaming encoder against Foundation's JSONEncoder on the hot
# responses (a CategoryList of 10 000 categories, a FilterEvent), in process, release build;
# prints the median of alternating rounds for each. The benchmark is its own package
# (Benchmarks/JSONEncoding) so that the main build stays lean.
set -euo pipefail
cd "$(dirname "$0")/JSONEncoding"
swift build -c release >&2
.build/release/json-encoding-benchmark
