#!/usr/bin/env bash
# codecs.sh: the two codecs of the contract on the hot responses (a CategoryList of 10 000
# categories, a FilterEvent with 12 options), in process, release build: JSON encode and decode
# (JSONCodec) against CBOR encode and decode (CBORCodec), and Foundation's JSONEncoder and
# JSONDecoder as the references for JSONCodec's own writer and reader. Rounds alternate the
# operations' order; prints the median time a call of each, the encoded sizes, and the ratios
# CBOR / JSON. Stops with an error when a decode does not give back the original message. The benchmark is its own package
# (Benchmarks/Codecs) so that the main build stays lean.
# Environment (defaults): ROUNDS=7.
set -euo pipefail
cd "$(dirname "$0")/Codecs"
swift build -c release >&2
.build/release/codec-benchmark
