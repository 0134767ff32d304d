#!/usr/bin/env bash
# codec-unary.sh: unary GetItem in JSON against the same call in CBOR, on one catalogd (release,
# fresh SQLite file with --seed-demo so that item 42 exists, 127.0.0.1:50051), in one run with
# the codecs alternating round by round. Each round loads, with h2load -c C -m M -t 1 for D
# seconds: content-type application/grpc+json with {"id":42}, then application/grpc+cbor with
# a1 62 69 64 18 2a (the same map in CBOR). Before measuring, one call in each codec must answer
# grpc-status 0 in its own content type (nghttp), so that errors cannot pass for speed; the sizes
# of both answers are printed. Prints each run, then the medians of req/s and p50/p99 and the
# ratios CBOR / JSON.
# Environment (defaults): ROUNDS=3 D=5 W=1 C=8 M=32.
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
ROUNDS=${ROUNDS:-3} D=${D:-5} W=${W:-1} C=${C:-8} M=${M:-32}
for tool in h2load nghttp; do
  command -v "$tool" >/dev/null || { echo "$tool missing: scripts/setup.sh installs it" >&2; exit 2; }
done
cd "$root"
swift build -c release --product catalogd >&2
source Benchmarks/lib/processes.sh
source Benchmarks/lib/h2load.sh

.build/release/catalogd --address 127.0.0.1:50051 --database "$tmpdir/bench.sqlite" --seed-demo --log-level warning \
  > "$tmpdir/catalogd.log" 2>&1 & pids+=($!)
wait_port 50051 catalogd "$tmpdir/catalogd.log"

printf '\x00\x00\x00\x00\x09{"id":42}' > "$tmpdir/json.req"
printf '\x00\x00\x00\x00\x06\xa1\x62\x69\x64\x18\x2a' > "$tmpdir/cbor.req"
# label|content-type|body
targets=(
  "json|application/grpc+json|$tmpdir/json.req"
  "cbor|application/grpc+cbor|$tmpdir/cbor.req"
)
path=/catalog.v1.Catalog/GetItem
for t in "${targets[@]}"; do
  IFS='|' read -r label ct body <<<"$t"
  out=$(nghttp -v -n -H "content-type: $ct" -H "te: trailers" -d "$body" "http://127.0.0.1:50051$path" 2>&1) || true
  if ! grep -q "recv (stream_id=[0-9]*) grpc-status: 0$" <<<"$out" \
    || ! grep -q "recv (stream_id=[0-9]*) content-type: $ct$" <<<"$out"; then
    echo "GetItem in $label does not answer grpc-status 0 in $ct:" >&2; echo "$out" >&2; exit 1
  fi
  bytes=$(awk '/recv DATA frame <length=/ { sub(/.*length=/, ""); sub(/,.*/, ""); n += $0 } END { print n + 0 }' <<<"$out")
  echo "# $label: GetItem answers grpc-status 0 in $ct, a message of $((bytes - 5)) bytes"
done

echo "# $(nproc) cores, h2load -D $D --warm-up-time $W -c $C -m $M -t 1, $ROUNDS rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
  for t in "${targets[@]}"; do
    IFS='|' read -r label ct body <<<"$t"
    h2load_run "$round" "$label" 50051 "$ct" "$path" "$body" "$tmpdir/rounds.txt"
  done
done
echo "# medians"
for key in req_s p50_ms p99_ms; do
  json=$(rounds_median "$tmpdir/rounds.txt" json "$key") cbor=$(rounds_median "$tmpdir/rounds.txt" cbor "$key")
  awk -v k="$key" -v j="$json" -v c="$cbor" 'BEGIN { printf "%-7s json %10s  cbor %10s  cbor/json %.3f\n", k, j, c, c / j }'
done
