#!/usr/bin/env bash
# abuse-latency.sh: honest clients' unary latency while one attack at a time abuses catalogd's
# HTTP/2 layer. Builds catalogd and the benchmark (its own package, Benchmarks/AbuseLatency,
# which builds catalogd too so that NIO and BoringSSL are compiled once) in release, starts
# catalogd on 127.0.0.1:$PORT with a fresh store seeded with 1 000 categories and 10 000 items
# (so GetItem 1 exists and Categories/List answers ~1 000 entries), and runs the benchmark:
# each round alternates a baseline phase (the honest client alone) with one attack phase, for
# every attack, so that each ratio compares measurements a few seconds apart. Prints one JSON
# line per phase (with catalogd's CPU use over the phase), then a Markdown table of medians
# over the rounds, with the verdict against the target: honest p50 and p99 within 2×
# of the baseline.
#
# The honest client: LANES connections, each one unary call at a time (GetItem and
# Health/Check in turn) every INTERVAL_MS. Each attack runs on ATTACKERS threads, one raw
# connection at a time each, reconnecting whenever the server closes it.
#
# The attackers stand for another machine: with ISOLATE=1 (the default) they keep to the last
# core while catalogd and the honest client keep to the others (taskset), in the baseline
# phases too, so that the attackers' own CPU use does not count against catalogd; everything
# catalogd does about the attack still does. ISOLATE=0 lets every thread run anywhere (on 2
# cores the attackers then take more than a core from the rest).
# CATALOGD=path runs that catalogd binary instead of the one built here (to compare two builds).
# Environment (defaults): PORT=50051 PHASE_S=4 ROUNDS=3 ATTACKERS=2 LANES=2 INTERVAL_MS=2 ISOLATE=1
#   ATTACKS=rapid-reset,ping-flood,settings-flood,continuation-flood,oversized-headers,slow-reader,connection-churn,empty-frames,hpack-bomb
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
PORT=${PORT:-50051} PHASE_S=${PHASE_S:-4} ROUNDS=${ROUNDS:-3} ATTACKERS=${ATTACKERS:-2} LANES=${LANES:-2}
INTERVAL_MS=${INTERVAL_MS:-2} ISOLATE=${ISOLATE:-1}
cd "$root/Benchmarks/AbuseLatency"
swift build -c release --product catalogd >&2
swift build -c release --product abuse-latency >&2
bin=$(swift build -c release --show-bin-path)
catalogd=${CATALOGD:-$bin/catalogd}

source "$root/Benchmarks/lib/processes.sh"
keep=() isolation=()
if [ "$ISOLATE" = 1 ]; then
  last=$(( $(nproc) - 1 ))
  [ "$last" -ge 1 ] || { echo "ISOLATE=1 needs two cores" >&2; exit 2; }
  keep=(taskset -c "0-$(( last - 1 ))") isolation=(--attacker-cpu "$last")
fi
"${keep[@]}" "$catalogd" --address "127.0.0.1:$PORT" --database "$tmpdir/bench.sqlite" --seed-benchmark 1000,10000,1000 \
  > "$tmpdir/catalogd.log" 2>&1 & pids+=($!)
wait_port "$PORT" catalogd "$tmpdir/catalogd.log"

attacks=()
[ -n "${ATTACKS:-}" ] && attacks=(--attacks "$ATTACKS")
echo "# $(nproc) cores, $ROUNDS rounds of ${PHASE_S} s phases, $LANES honest lanes every $INTERVAL_MS ms," \
  "$ATTACKERS attackers, ISOLATE=$ISOLATE; load average $(cut -d' ' -f1-3 /proc/loadavg)"
"${keep[@]}" "$bin/abuse-latency" "${isolation[@]}" --port "$PORT" --seconds "$PHASE_S" --rounds "$ROUNDS" --attackers "$ATTACKERS" \
  --lanes "$LANES" --interval-ms "$INTERVAL_MS" --server-pid "${pids[0]}" "${attacks[@]}"
echo "# catalogd logged $(grep -c 'closing abusive connection' "$tmpdir/catalogd.log" || true) abusive connections;" \
  "still running: $(kill -0 "${pids[0]}" 2>/dev/null && echo yes || echo NO); load average $(cut -d' ' -f1-3 /proc/loadavg)"
