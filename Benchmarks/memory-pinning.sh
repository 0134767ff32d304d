#!/usr/bin/env bash
# memory-pinning.sh: what a client without a token can make catalogd hold. Starts release catalogd
# (or CATALOGD=path, to measure another build) on 127.0.0.1:$PORT with a fresh store, then plays
# two attacks with Tests/CatalogdTests/Python/h2_pinning.py (Python's h2), one after the other:
#   partial-bodies: one connection, STREAMS Health/Check calls each announcing a BYTES-byte message
#                   and sending all of it but one byte, never ending;
#   zero-window:    CONNECTIONS connections, each with SETTINGS_INITIAL_WINDOW_SIZE 0 and 1 024
#                   Reflection/Describe calls it never lets the answers of through.
# For each, catalogd's VmRSS before the attack and while the attacker holds everything it got
# (HOLD_S seconds after the attacker reported), with the attacker's outcomes by status.
# Environment (defaults): PORT=50051 STREAMS=1000 BYTES=4194304 CONNECTIONS=8 HOLD_S=2 CATALOGD=
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
PORT=${PORT:-50051} STREAMS=${STREAMS:-1000} BYTES=${BYTES:-4194304} CONNECTIONS=${CONNECTIONS:-8} HOLD_S=${HOLD_S:-2}
cd "$root"
if [ -z "${CATALOGD:-}" ]; then
  swift build -c release --product catalogd
  CATALOGD=.build/release/catalogd
fi
attacker=$root/Tests/CatalogdTests/Python/h2_pinning.py
source "$root/Benchmarks/lib/processes.sh"

rss() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

# attack NAME ARGS...: a fresh catalogd, the attack, the figures.
attack() {
  local name=$1 server before held
  shift
  "$CATALOGD" --address "127.0.0.1:$PORT" --database "$tmpdir/$name.sqlite" > "$tmpdir/$name.log" 2>&1 & pids+=($!)
  server=$!
  wait_port "$PORT" catalogd "$tmpdir/$name.log"
  before=$(rss "$server")
  local clients=()
  for _ in $(seq "$1"); do
    python3 "$attacker" --target "127.0.0.1:$PORT" "${@:2}" > "$tmpdir/$name.$_.out" 2>&1 & clients+=($!) pids+=($!)
  done
  # Every attacker reports one line once it sent everything (and waited, with --wait-ended).
  for _ in $(seq 600); do
    [ "$(cat "$tmpdir/$name".*.out 2>/dev/null | grep -c '^{')" -ge "$1" ] && break
    sleep 0.5
  done
  sleep "$HOLD_S"
  held=$(rss "$server")
  echo "$name: rss_before_kib=$before rss_holding_kib=$held growth_mib=$(( (held - before) / 1024 ))"
  cat "$tmpdir/$name".*.out | head -n "$1" | sed 's/^/  /'
  kill "${clients[@]}" "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
}

attack partial-bodies 1 --mode partial-bodies --streams "$STREAMS" --bytes "$BYTES"
attack zero-window "$CONNECTIONS" --mode zero-window --streams 1024 --wait-ended 2
