#!/usr/bin/env bash
# unary.sh: catalogd (release, fresh SQLite store with --seed-demo so GetItem 42 exists, 127.0.0.1:50051) measured beside the shared peers.
#   default:     ../shared/peers/bench/compare.sh project=127.0.0.1:50051 (unary A B C D rounds,
#                then fan-out rounds, then a table of medians).
#   UNARY_ONLY=1: compare.sh has no switch to skip its fan-out part, so this script does the unary
#                part itself the same way: starts the peers like compare.sh (grpc-swift2 :50061,
#                grpcio :50062, nghttpd-static :50063), runs peers/bench/unary.sh against each target
#                in turn for ROUNDS rounds, and prints medians with req/s relative to nghttpd-static.
# Environment is passed through: ROUNDS=3, unary.sh's D=5 W=1 C=8 M=32 T=1 TOKEN=, compare.sh's
# FANOUT_N=1000 FANOUT_K=10 FANOUT_M=200 FANOUT_CLIENT FANOUT_INTERVAL_MS FANOUT_TIMEOUT_S FANOUT_BATCH.
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
peers=$root/../shared/peers
cd "$root"
swift build -c release --product catalogd

source "$root/Benchmarks/lib/processes.sh"

.build/release/catalogd --address 127.0.0.1:50051 --database "$tmpdir/bench.sqlite" --seed-demo \
  > "$tmpdir/catalogd.log" 2>&1 & pids+=($!)
wait_port 50051 catalogd "$tmpdir/catalogd.log"

if [ "${UNARY_ONLY:-0}" != 1 ]; then
  "$peers/bench/compare.sh" project=127.0.0.1:50051
  exit 0
fi

ROUNDS=${ROUNDS:-3} PORT_BASE=${PORT_BASE:-50061}
bin=$peers/grpc-swift2/.build/release
if [ ! -x "$bin/peer-server" ]; then
  echo "# building grpc-swift2 peer (release; ~6 min the first time)" >&2
  swift build -c release --package-path "$peers/grpc-swift2" >&2
fi
python3 -c 'import grpc' 2>/dev/null || { echo "grpcio missing: run scripts/setup.sh" >&2; exit 2; }
p1=$PORT_BASE p2=$((PORT_BASE + 1)) p3=$((PORT_BASE + 2))
"$bin/peer-server" --port "$p1" > "$tmpdir/swift.log" 2>&1 & pids+=($!)
python3 "$peers/grpcio/server.py" --port "$p2" > "$tmpdir/grpcio.log" 2>&1 & pids+=($!)
"$peers/nghttpd/serve.sh" "$p3" > "$tmpdir/nghttpd.log" 2>&1 & pids+=($!)
# label|port|content-type|check grpc-status (as compare.sh: grpc-swift-2 answers 415 to +json)
targets=(
  "grpc-swift2|$p1|application/grpc|1"
  "grpcio|$p2|application/grpc+json|1"
  "nghttpd-static|$p3|application/grpc+json|0"
  "project|50051|application/grpc+json|1"
)
wait_port "$p1" grpc-swift2 "$tmpdir/swift.log"
wait_port "$p2" grpcio "$tmpdir/grpcio.log"
wait_port "$p3" nghttpd-static "$tmpdir/nghttpd.log"

echo "# machine: $(nproc) cores; load generator and servers share them"
echo "# unary: h2load -D ${D:-5} --warm-up-time ${W:-1} -c ${C:-8} -m ${M:-32} -t ${T:-1}, $ROUNDS rounds"
for round in $(seq "$ROUNDS"); do
  echo "# unary round $round, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  for t in "${targets[@]}"; do
    IFS='|' read -r label port ct check <<<"$t"
    HOST=127.0.0.1 CT=$ct CHECK_GRPC=$check "$peers/bench/unary.sh" "$port" "$label" \
      | tee -a "$tmpdir/unary.txt" || true
  done
done

python3 - "$tmpdir/unary.txt" <<'PY'
import statistics, sys
rows = [dict(kv.split("=", 1) for kv in l.split()[1:] if "=" in kv)
        for l in open(sys.argv[1]) if l.startswith("unary ")]
labels = ["grpc-swift2", "grpcio", "nghttpd-static", "project"]
def med(rs, key):
    v = [float(r[key]) for r in rs if r.get(key)]
    return statistics.median(v) if v else None
ref = med([r for r in rows if r["label"] == "nghttpd-static"], "req_s")
print(f"\nunary GetItem via h2load (medians)")
print(f"{'target':<16}{'runs':>5}{'req/s':>11}{'range':>17}{'mean ms':>9}{'max ms':>9}{'all 2xx':>8}{'grpc-status':>12}{'/ nghttpd':>10}")
for l in labels:
    rs = [r for r in rows if r["label"] == l]
    rps = med(rs, "req_s")
    if rps is None:
        print(f"{l:<16}{len(rs):>5}{'-':>11}  (no successful run)"); continue
    v = [float(r["req_s"]) for r in rs if r.get("req_s")]
    ok = all(r.get("non2xx") == "0" and r.get("failed") == "0" for r in rs)
    status = ",".join(sorted({r.get("grpc_status", "?") for r in rs}))
    ratio = f"{rps / ref:.3f}" if ref else "-"
    print(f"{l:<16}{len(rs):>5}{rps:>11.0f}{f'{min(v):.0f}-{max(v):.0f}':>17}{med(rs, 'mean_ms'):>9.1f}"
          f"{med(rs, 'max_ms'):>9.1f}{'yes' if ok else 'NO':>8}{status:>12}{ratio:>10}")
PY
