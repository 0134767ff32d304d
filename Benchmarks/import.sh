#!/usr/bin/env bash
# import.sh: loading N items into a fresh catalogd (SQLite), two ways in alternating rounds:
# `creates`, N Catalog/CreateItem calls pipelined on one connection (h2load -n N -c 1 -m 32 -t 1),
# against `import`, one Catalog/ImportItems call (`catalog item import` of a JSON-lines file of N
# requests, the CLI's own start and parsing included). Each round starts a fresh catalogd per
# target. Prints one line a round and target (wall time, catalogd's CPU, its RSS growth from
# ready to the peak), then the medians and the ratio creates / import of the wall times.
# Environment: ROUNDS=3 N=100000; CATALOGD, CATALOG (release binaries; built when unset).
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib/processes.sh
rounds=${ROUNDS:-3} n=${N:-100000}
if [[ -z "${CATALOGD:-}" || -z "${CATALOG:-}" ]]; then
  swift build -c release --product catalogd >/dev/null
  swift build -c release --product catalog >/dev/null
  bin=$(swift build -c release --show-bin-path)
  CATALOGD=${CATALOGD:-$bin/catalogd} CATALOG=${CATALOG:-$bin/catalog}
fi
port=50073
python3 - "$n" > "$tmpdir/items.jsonl" <<'PY'
import json, sys
for index in range(int(sys.argv[1])):
    print(json.dumps({"title": f"Formation {index}", "summary": "Un résumé de la formation", "level": "Débutant",
                      "price": {"amount": f"{index % 2000}.00", "currency": "EUR"}, "categoryId": index % 4 + 1}))
PY
printf '{"title":"Formation","summary":"Un résumé de la formation","level":"Débutant","price":{"amount":"990.00","currency":"EUR"},"categoryId":1}' > "$tmpdir/create.json"
python3 -c "import sys,struct; body=open(sys.argv[1],'rb').read(); sys.stdout.buffer.write(b'\x00'+struct.pack('>I',len(body))+body)" "$tmpdir/create.json" > "$tmpdir/create.req"
hz=$(getconf CLK_TCK)
ticks() { awk '{print $14+$15}' "/proc/$1/stat"; }
rss_kib() { awk "/^$2:/ {print \$2}" "/proc/$1/status"; }
results=()
for r in $(seq "$rounds"); do
  order="creates import"
  (( r % 2 == 0 )) && order="import creates"
  for target in $order; do
    rm -f "$tmpdir/catalog.sqlite"*
    "$CATALOGD" --address 127.0.0.1:$port --database "$tmpdir/catalog.sqlite" --log-level warning >"$tmpdir/catalogd.log" 2>&1 &
    pid=$!; pids+=($pid)
    wait_port $port catalogd "$tmpdir/catalogd.log"
    rss_ready=$(rss_kib $pid VmRSS); cpu_before=$(ticks $pid); start=$(date +%s.%N)
    if [[ $target == creates ]]; then
      out=$(h2load -n "$n" -c 1 -m 32 -t 1 -H "content-type: application/grpc+json" -H "te: trailers" -d "$tmpdir/create.req" \
        "http://127.0.0.1:$port/catalog.v1.Catalog/CreateItem" 2>&1)
      ok=$(awk '/^requests:/ {print $8}' <<<"$out")
    else
      out=$("$CATALOG" item import "$tmpdir/items.jsonl" --server 127.0.0.1:$port -o json)
      ok=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["created"])' <<<"$out")
    fi
    end=$(date +%s.%N); cpu_after=$(ticks $pid); peak=$(rss_kib $pid VmHWM)
    kill $pid; wait $pid 2>/dev/null || true
    line=$(awk -v t=$target -v r=$r -v s=$start -v e=$end -v b=$cpu_before -v a=$cpu_after -v hz=$hz -v ready=$rss_ready -v peak=$peak -v ok=$ok \
      'BEGIN {printf "round=%d target=%s succeeded=%s wall_s=%.3f cpu_s=%.2f rss_growth_mib=%.1f", r, t, ok, e-s, (a-b)/hz, (peak-ready)/1024}')
    echo "$line"; results+=("$line")
  done
done
printf '%s\n' "${results[@]}" | python3 -c '
import re, statistics, sys
rows = [dict(re.findall(r"(\w+)=(\S+)", line)) for line in sys.stdin]
medians = {}
for target in ("creates", "import"):
    mine = [row for row in rows if row["target"] == target]
    medians[target] = {key: statistics.median(float(row[key]) for row in mine) for key in ("wall_s", "cpu_s", "rss_growth_mib")}
    print(f"median target={target} " + " ".join(f"{key}={value:.3f}" for key, value in medians[target].items()))
wall = medians["creates"]["wall_s"] / medians["import"]["wall_s"]
cpu = medians["creates"]["cpu_s"] / medians["import"]["cpu_s"]
print(f"ratio creates/import wall_s={wall:.1f}x cpu_s={cpu:.1f}x")
'
