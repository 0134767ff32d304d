#!/usr/bin/env bash
# stores.sh: unary calls through each store, beside the grpc-swift-2 peer (which serves from
# memory), in one run with the targets alternating round by round. catalogd runs twice with
# --seed-demo: on a fresh SQLite file (127.0.0.1:50051) and on a throwaway PostgreSQL
# (scripts/postgres.sh, 127.0.0.1:50052). Each round loads, with h2load -c C -m M -t 1 for D
# seconds: GetItem {"id":42} on the three servers, then Categories.List {} on the two catalogd
# (the peer has no Categories), then ListItems {"pageSize":10} on PostgreSQL, the read that
# makes its round trips to PostgreSQL on every call (BEGIN, the snapshot, a count, the page,
# COMMIT) where the others answer from the replica's caches. BASELINE=path/to/catalogd adds
# another build as a second replica of the same database (127.0.0.1:50053), loaded with the
# same PostgreSQL calls, alternating with this build's. Prints each run, then the medians of
# req/s and p50/p99, and with BASELINE the ratios this build / baseline.
# Environment: ROUNDS=3 D=5 W=1 C=8 M=32 BASELINE=.
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
peers=$root/../shared/peers
ROUNDS=${ROUNDS:-3} D=${D:-5} W=${W:-1} C=${C:-8} M=${M:-32}
command -v h2load >/dev/null || { echo "h2load missing: scripts/setup.sh installs it" >&2; exit 2; }
cd "$root"
swift build -c release --product catalogd >&2
[ -x "$peers/grpc-swift2/.build/release/peer-server" ] || swift build -c release --package-path "$peers/grpc-swift2" >&2
source Benchmarks/lib/processes.sh
source Benchmarks/lib/h2load.sh
source scripts/postgres.sh
pgdir=$(mktemp -d)
trap 'cleanup; pg_cluster_stop "$pgdir"; rm -rf "$pgdir"' EXIT
pg_cluster_start "$pgdir"

.build/release/catalogd --address 127.0.0.1:50051 --database "$tmpdir/bench.sqlite" --seed-demo --log-level warning \
  > "$tmpdir/sqlite.log" 2>&1 & pids+=($!)
.build/release/catalogd --address 127.0.0.1:50052 --database "$PG_URL" --seed-demo --log-level warning \
  > "$tmpdir/postgres.log" 2>&1 & pids+=($!)
"$peers/grpc-swift2/.build/release/peer-server" --port 50061 > "$tmpdir/swift.log" 2>&1 & pids+=($!)
wait_port 50051 catalogd-sqlite "$tmpdir/sqlite.log"
wait_port 50052 catalogd-postgres "$tmpdir/postgres.log"
wait_port 50061 grpc-swift2 "$tmpdir/swift.log"
if [ -n "${BASELINE:-}" ]; then
  "$BASELINE" --address 127.0.0.1:50053 --database "$PG_URL" --log-level warning > "$tmpdir/baseline.log" 2>&1 & pids+=($!)
  wait_port 50053 catalogd-baseline "$tmpdir/baseline.log"
fi

frame() { printf "\\x00\\x00\\x00\\x00\\x$(printf %02x ${#1})%s" "$1"; }   # bodies under 256 bytes
frame '{"id":42}' > "$tmpdir/getitem.req"
frame '{}' > "$tmpdir/empty.req"
frame '{"pageSize":10}' > "$tmpdir/listitems.req"
# label|port|content-type|path|body
postgres_targets() {  # postgres_targets SUFFIX PORT: this build's (or the baseline's) PostgreSQL targets
  echo "getitem-postgres$1|$2|application/grpc+json|/catalog.v1.Catalog/GetItem|$tmpdir/getitem.req"
  echo "list-postgres$1|$2|application/grpc+json|/catalog.v1.Categories/List|$tmpdir/empty.req"
  echo "listitems-postgres$1|$2|application/grpc+json|/catalog.v1.Catalog/ListItems|$tmpdir/listitems.req"
}
targets=(
  "getitem-sqlite|50051|application/grpc+json|/catalog.v1.Catalog/GetItem|$tmpdir/getitem.req"
  "getitem-grpc-swift2|50061|application/grpc|/catalog.v1.Catalog/GetItem|$tmpdir/getitem.req"
  "list-sqlite|50051|application/grpc+json|/catalog.v1.Categories/List|$tmpdir/empty.req"
)
mapfile -t current < <(postgres_targets "" 50052)
baseline=()
[ -n "${BASELINE:-}" ] && mapfile -t baseline < <(postgres_targets "-baseline" 50053)
echo "# $(nproc) cores, h2load -D $D --warm-up-time $W -c $C -m $M -t 1, $ROUNDS rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
  # With a baseline, each PostgreSQL call runs on both builds in turn, the first of the two alternating.
  order=("${targets[@]}")
  for i in "${!current[@]}"; do
    if [ ${#baseline[@]} -eq 0 ]; then order+=("${current[$i]}")
    elif (( round % 2 )); then order+=("${current[$i]}" "${baseline[$i]}")
    else order+=("${baseline[$i]}" "${current[$i]}"); fi
  done
  for t in "${order[@]}"; do
    IFS='|' read -r label port ct path body <<<"$t"
    h2load_run "$round" "$label" "$port" "$ct" "$path" "$body" "$tmpdir/rounds.txt"
  done
done
echo "# medians"
for t in "${targets[@]}" "${current[@]}" "${baseline[@]}"; do
  label=${t%%|*}
  printf "%-28s req/s %9.0f  p50 %6.2f ms  p99 %6.2f ms\n" "$label" "$(rounds_median "$tmpdir/rounds.txt" "$label" req_s)" \
    "$(rounds_median "$tmpdir/rounds.txt" "$label" p50_ms)" "$(rounds_median "$tmpdir/rounds.txt" "$label" p99_ms)"
done
if [ ${#baseline[@]} -gt 0 ]; then
  echo "# this build / baseline, medians"
  for t in "${current[@]}"; do
    label=${t%%|*}
    awk -v l="$label" -v a="$(rounds_median "$tmpdir/rounds.txt" "$label" req_s)" -v b="$(rounds_median "$tmpdir/rounds.txt" "$label-baseline" req_s)" \
      -v c="$(rounds_median "$tmpdir/rounds.txt" "$label" p99_ms)" -v d="$(rounds_median "$tmpdir/rounds.txt" "$label-baseline" p99_ms)" \
      'BEGIN { printf "%-28s req/s %.3f  p99 %.3f\n", l, a / b, c / d }'
  done
fi
