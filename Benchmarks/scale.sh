#!/usr/bin/env bash
# scale.sh: catalogd with a big store (by default 10,000 categories, 1,000,000 items, one category of
# 100,000). Seeds a fresh database with `catalogd --seed-benchmark` (timed), then measures server
# latency one call at a time (h2load -c 1 -m 1 --log-file: start µs, status, duration µs) for
#   Categories.List {sort: itemCount}, Categories.Stats, Catalog.ListItems {categoryId, pageSize: 50}
# and one Categories.Move {large category to position 0} then one Categories.Merge {large category
# into another}, each timed as a single call. One line per measurement, with the target beside it.
# Then category writes at two sizes, each on a fresh store: the demo catalog (--seed-demo, about
# ten categories) and WRITE_SEED (10,000 categories): WRITES Categories/Create one at a time
# (Benchmarks/Scale/category_writes.py), the database's growth per write (sizes after a clean
# stop, WAL checkpointed), then a restart: seconds to "catalogd ready" and RSS once ready.
# STORE=postgres runs catalogd on a throwaway PostgreSQL (scripts/postgres.sh) instead of an SQLite file.
# Environment: SEED=10000,1000000,100000 N=200 (reads per method) WRITES=1500 WRITE_SEED=10000,100000,10000
#   PORT=50071 STORE=sqlite KEEP=1 (keep the temp dir) ONLY=writes (skip the seed and reads)
#   BASELINE=path/to/another/catalogd (the writes measured with it too, in the same run).
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
SEED=${SEED:-10000,1000000,100000} N=${N:-200} PORT=${PORT:-50071} STORE=${STORE:-sqlite}
WRITES=${WRITES:-1500} WRITE_SEED=${WRITE_SEED:-10000,100000,10000} ONLY=${ONLY:-}
command -v h2load >/dev/null || { echo "h2load missing: scripts/setup.sh installs it" >&2; exit 2; }
cd "$root"
swift build -c release --product catalogd >&2

tmp=$(mktemp -d) pgdir=
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null || true
  [ -n "$pgdir" ] && { pg_cluster_stop "$pgdir"; rm -rf "$pgdir"; }
  [ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
database=$tmp/scale.sqlite
if [ "$STORE" = postgres ]; then
  . scripts/postgres.sh
  pgdir=$(mktemp -d)
  pg_cluster_start "$pgdir"
  database=$PG_URL
fi

reads() {
  # The seed: catalogd logs "seeded the benchmark catalog" with seconds= and the ids, then serves.
  start=$(date +%s%N)
  .build/release/catalogd --address "127.0.0.1:$PORT" --database "$database" --seed-benchmark "$SEED" \
    --log-level notice > "$tmp/catalogd.log" 2>&1 & pid=$!
  until grep -q "catalogd ready" "$tmp/catalogd.log"; do
    kill -0 "$pid" 2>/dev/null || { cat "$tmp/catalogd.log" >&2; exit 1; }
    sleep 0.2
  done
  wall_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  field() { grep "seeded the benchmark catalog" "$tmp/catalogd.log" | sed "s/.*$1=\([0-9.]*\).*/\1/"; }
  large=$(field largeCategoryId) middle=$(field middleCategoryId) other=$(field otherCategoryId)
  if [ "$STORE" = postgres ]; then
    db_mb=$(pg_as "$(pg_bin)/psql" -h "$pgdir" -U catalog -d catalog -XAt -c "SELECT pg_database_size('catalog') / 1048576")
  else
    db_mb=$(du -m "$tmp/scale.sqlite" | cut -f1)
  fi
  echo "# $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); store $STORE; seed $SEED; large=$large middle=$middle other=$other"
  echo "seed seconds=$(field seconds) wall_to_ready_s=$(awk -v m="$wall_ms" 'BEGIN {printf "%.2f", m/1000}') db_mb=$db_mb target_s=60"

  # gRPC framing: 0, then the length as 4 big-endian bytes, then the JSON.
  frame() {
    local n=${#1}
    printf "\\x00\\x$(printf %02x $((n >> 24 & 255)))\\x$(printf %02x $((n >> 16 & 255)))\\x$(printf %02x $((n >> 8 & 255)))\\x$(printf %02x $((n & 255)))%s" "$1"
  }

  # latency LABEL PATH JSON TARGET_P99_MS: N calls, one at a time.
  latency() {
    frame "$3" > "$tmp/req"
    rm -f "$tmp/latency.log"   # h2load appends to its log file
    out=$(h2load -n "$N" -c 1 -m 1 -t 1 -H "content-type: application/grpc+json" -H "te: trailers" \
      -d "$tmp/req" --log-file "$tmp/latency.log" "http://127.0.0.1:$PORT$2" 2>&1)
    ok=$(awk '/^status codes:/ {print $3}' <<<"$out")
    read -r p50 p99 max < <(awk '{print $3}' "$tmp/latency.log" | sort -n | awk '{v[NR]=$1} END {
      printf "%.2f %.2f %.2f\n", v[int(NR*0.50)+1]/1000, v[int(NR*0.99)+1]/1000, v[NR]/1000}')
    echo "$1 n=$N ok_2xx=$ok p50_ms=$p50 p99_ms=$p99 max_ms=$max target_p99_ms=$4"
  }

  latency list_by_itemcount /catalog.v1.Categories/List '{"sort":"itemCount"}' 20
  latency stats /catalog.v1.Categories/Stats '{}' 20
  latency list_items_middle /catalog.v1.Catalog/ListItems "{\"categoryId\":$middle,\"pageSize\":50}" 5
  latency list_items_large /catalog.v1.Catalog/ListItems "{\"categoryId\":$large,\"pageSize\":50}" 5

  # The writes, once each and in this order (the merge deletes the large category).
  move_body="{\"id\":$large,\"toPosition\":0}"
  merge_body="{\"sourceIds\":[$large],\"targetId\":$other}"
  frame "$move_body" > "$tmp/move.req"
  frame "$merge_body" > "$tmp/merge.req"
  for call in "move|/catalog.v1.Categories/Move|$tmp/move.req" "merge|/catalog.v1.Categories/Merge|$tmp/merge.req"; do
    IFS='|' read -r label path body <<<"$call"
    t0=$(date +%s%N)
    answer=$(nghttp -v -H "content-type: application/grpc+json" -H "te: trailers" -d "$body" \
      "http://127.0.0.1:$PORT$path" 2>&1 | tr -d '\000')
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    status=$(grep -o "grpc-status: [0-9]*" <<<"$answer" | head -1 | cut -d' ' -f2)
    echo "${label}_large_category ms=$ms grpc_status=${status:-?} target_ms=1000"
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
}

# db_bytes DATABASE: its size in bytes, catalogd stopped (an SQLite file once its WAL is
# checkpointed into it and truncated).
db_bytes() {
  if [ "$STORE" = postgres ]; then
    pg_as "$(pg_bin)/psql" -h "$pgdir" -U catalog -d "$1" -XAt -c "SELECT pg_database_size('$1')"
  else
    python3 -c "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA wal_checkpoint(TRUNCATE)')" "$1"
    stat -c %s "$1"
  fi
}

# serve DATABASE [ARGS...]: starts catalogd ($pid) and waits until it is ready; $ready_s is the
# seconds that took.
serve() {
  local database=$1; shift
  local t0; t0=$(date +%s%N)
  "$bin" --address "127.0.0.1:$PORT" --database "$database" --log-level notice "$@" > "$tmp/catalogd.log" 2>&1 & pid=$!
  until grep -q "catalogd ready" "$tmp/catalogd.log"; do
    kill -0 "$pid" 2>/dev/null || { cat "$tmp/catalogd.log" >&2; exit 1; }
    sleep 0.02
  done
  ready_s=$(awk -v ns="$(( $(date +%s%N) - t0 ))" 'BEGIN {printf "%.2f", ns / 1e9}')
}

stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=; }

# writes LABEL SEED_ARGS...: WRITES creates on a fresh store with catalogd $bin, growth per
# write, restart and RSS.
writes() {
  local label=$1$2; shift 2
  local database=$tmp/$label.sqlite
  if [ "$STORE" = postgres ]; then
    pg_as "$(pg_bin)/createdb" -h "$pgdir" -U catalog "$label"
    database="postgresql://catalog@/$label?host=$pgdir"
  fi
  local size_arg=$database
  [ "$STORE" = postgres ] && size_arg=$label
  serve "$database" "$@"; stop
  local before; before=$(db_bytes "$size_arg")
  serve "$database"
  local result; result=$(python3 Benchmarks/Scale/category_writes.py --port "$PORT" --count "$WRITES")
  stop
  local after; after=$(db_bytes "$size_arg")
  serve "$database"
  local rss_mb; rss_mb=$(awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$pid/status")
  stop
  echo "writes_$label build=$bin $result bytes_per_write=$(( (after - before) / WRITES )) db_mb=$(( after / 1048576 )) restart_to_ready_s=$ready_s rss_mb=$rss_mb"
}

if [ -z "$ONLY" ]; then reads; fi
echo "# category writes: $WRITES creates each; targets: p50 at 10,000 within 1.5x of the demo's, under 1 KB a write, restart under 1 s, RSS under 150 MB"
builds=(.build/release/catalogd ${BASELINE:+"$BASELINE"})
for size in demo seeded; do
  for index in "${!builds[@]}"; do
    bin=${builds[$index]}
    case $size in
      demo) writes demo "$index" --seed-demo ;;
      seeded) writes seeded "$index" --seed-benchmark "$WRITE_SEED" ;;
    esac
  done
done
