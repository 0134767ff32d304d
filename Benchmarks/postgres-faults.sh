#!/usr/bin/env bash
# postgres-faults.sh: catalogd replicas on PostgreSQL under faults (PostgresFaults/fault_run.py,
# writers through grpcio). First the reproduction: one replica, three writers (Categories/Create
# and Filters/Select in a loop, 5 s deadlines), PostgreSQL restarted 6 times 2 s apart, then
# SIGTERM. Then DURATION seconds of three replicas with three writers each, one replica SIGKILLed
# and started again every KILL_EVERY seconds, and PostgreSQL restarted once. One JSON line per
# run: calls acknowledged, indeterminate (a write answered UNAVAILABLE, DEADLINE_EXCEEDED or
# CANCELLED) and how many of those committed, failed, the statuses, INTERNAL answers, calls past
# their deadline, the longest wait, acknowledged writes missing, SIGTERM-to-exit and exit status.
# BASELINE=path/to/catalogd runs both with that build first. Exits 1 if a run of this build fails
# its checks (see fault_run.py).
# Environment: DURATION=60 KILL_EVERY=15 GRACE=10 BASELINE=.
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
DURATION=${DURATION:-60} KILL_EVERY=${KILL_EVERY:-15} GRACE=${GRACE:-10}
cd "$root"
swift build -c release --product catalogd >&2
run() {  # run LABEL CATALOGD ARGS...
  local label=$1 binary=$2 status=0
  shift 2
  echo "# $label"
  python3 Benchmarks/PostgresFaults/fault_run.py --catalogd "$binary" --grace "$GRACE" "$@" || status=$?
  return $status
}
failed=0
binaries=("this|.build/release/catalogd")
[ -n "${BASELINE:-}" ] && binaries=("baseline|$BASELINE" "${binaries[@]}")
for entry in "${binaries[@]}"; do
  label=${entry%%|*} binary=${entry#*|}
  for scenario in reproduction replicas; do
    if [ "$scenario" = reproduction ]; then
      args=(--replicas 1 --writers 3 --restarts 6 --restart-interval 2)
    else
      args=(--replicas 3 --writers 3 --duration "$DURATION" --restarts 1 --kill-every "$KILL_EVERY")
    fi
    if ! run "$label build, $scenario" "$binary" "${args[@]}" && [ "$label" = this ]; then failed=1; fi
  done
done
exit $failed
