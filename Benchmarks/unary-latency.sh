#!/usr/bin/env bash
# unary-latency.sh: unary throughput and p50/p99 latency of catalogd beside the shared peers, in
# one run, alternating targets round by round (A B C D A B C D ...) so that the machine's drift is
# shared. h2load -c C -m M -t 1 with --log-file gives every request's latency; the script prints
# each round and then medians, with req/s as a ratio to nghttpd-static and p99 as a ratio to the
# grpc-swift2 peer.
#
# Every target serves catalog.v1.Catalog/GetItem {"id":42} (catalogd from a fresh store with
# --seed-demo); PROJECT_PATH and PROJECT_BODY (JSON) load another method of catalogd instead.
# BASELINE=/path/to/catalogd adds a second catalogd binary (e.g. a release build of the commit
# before a change) as target "baseline", served and loaded the same way, so a change is measured
# against the build before it in the same run.
# Environment: ROUNDS=3 D=5 W=1 C=8 M=32 BASELINE=.
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
peers=$root/../shared/peers
ROUNDS=${ROUNDS:-3} D=${D:-5} W=${W:-1} C=${C:-8} M=${M:-32}
PROJECT_PATH=${PROJECT_PATH:-/catalog.v1.Catalog/GetItem} PROJECT_BODY=${PROJECT_BODY:-'{"id":42}'}
command -v h2load >/dev/null || { echo "h2load missing: scripts/setup.sh installs it" >&2; exit 2; }
cd "$root"
source Benchmarks/lib/h2load.sh
swift build -c release --product catalogd >&2
[ -x "$peers/grpc-swift2/.build/release/peer-server" ] || swift build -c release --package-path "$peers/grpc-swift2" >&2

tmp=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
.build/release/catalogd --address 127.0.0.1:50051 --database "$tmp/bench.sqlite" --seed-demo --log-level warning > "$tmp/catalogd.log" 2>&1 & pids+=($!)
"$peers/grpc-swift2/.build/release/peer-server" --port 50061 > "$tmp/swift.log" 2>&1 & pids+=($!)
python3 "$peers/grpcio/server.py" --port 50062 > "$tmp/grpcio.log" 2>&1 & pids+=($!)
"$peers/nghttpd/serve.sh" 50063 > "$tmp/nghttpd.log" 2>&1 & pids+=($!)
ports=(50051 50061 50062 50063)
if [ -n "${BASELINE:-}" ]; then
  "$BASELINE" --address 127.0.0.1:50052 --database "$tmp/baseline.sqlite" --seed-demo --log-level warning \
    > "$tmp/baseline.log" 2>&1 & pids+=($!)
  ports+=(50052)
fi
for port in "${ports[@]}"; do
  for _ in $(seq 150); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
done

frame() { printf "\\x00\\x00\\x00\\x00\\x$(printf %02x ${#1})%s" "$1"; }   # bodies under 256 bytes
frame "$PROJECT_BODY" > "$tmp/project.req"
frame '{"id":42}' > "$tmp/getitem.req"
# label|port|content-type|path|body
targets=(
  "project|50051|application/grpc+json|$PROJECT_PATH|$tmp/project.req"
  "grpc-swift2|50061|application/grpc|/catalog.v1.Catalog/GetItem|$tmp/getitem.req"
  "grpcio|50062|application/grpc+json|/catalog.v1.Catalog/GetItem|$tmp/getitem.req"
  "nghttpd-static|50063|application/grpc+json|/catalog.v1.Catalog/GetItem|$tmp/getitem.req"
)
[ -n "${BASELINE:-}" ] && targets=("${targets[0]}" "baseline|50052|application/grpc+json|$PROJECT_PATH|$tmp/project.req" "${targets[@]:1}")
echo "# $(nproc) cores, h2load -D $D --warm-up-time $W -c $C -m $M -t 1, $ROUNDS rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
  order=("${targets[@]}")
  # project and baseline take turns going first, so that neither gains from its place in a round.
  if [ -n "${BASELINE:-}" ] && (( round % 2 == 0 )); then order=("${targets[1]}" "${targets[0]}" "${targets[@]:2}"); fi
  for t in "${order[@]}"; do
    IFS='|' read -r label port ct path body <<<"$t"
    h2load_run "$round" "$label" "$port" "$ct" "$path" "$body" "$tmp/rounds.txt"
  done
done
echo "# medians"
ng=$(rounds_median "$tmp/rounds.txt" nghttpd-static req_s)
sw=$(rounds_median "$tmp/rounds.txt" grpc-swift2 p99_ms)
for t in "${targets[@]}"; do
  label=${t%%|*}
  rps=$(rounds_median "$tmp/rounds.txt" "$label" req_s)
  p99=$(rounds_median "$tmp/rounds.txt" "$label" p99_ms)
  awk -v l="$label" -v r="$rps" -v p="$p99" -v ng="$ng" -v sw="$sw" \
    'BEGIN {printf "%-15s req/s %9.0f  x nghttpd %.2f   p99 %6.2f ms  x grpc-swift2 p99 %.2f\n", l, r, r/ng, p, p/sw}'
done
