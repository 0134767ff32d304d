#!/usr/bin/env bash
# test.sh [swift test args...]: the whole suite, as CI runs it (docs/testing.md). Sets up the
# machine, builds everything including the tests (and so every Swift example of the
# documentation), runs every suite with `swift test`, then the soak tests on their own so that
# their load and timings are not the other suites' noise; then, side by side, builds the DocC
# documentation failing on any warning (scripts/docs.sh) and the client library without its
# HTTP/2 transport and over cleartext HTTP/2 without TLS (scripts/check-client-builds.sh); then
# the tests of the example packages, which depend on this one by path (Examples/FormationsApp,
# Examples/Greeter), then the fuzzers for FUZZ_SECONDS each (default 30; scripts/fuzz.sh, built
# in FUZZ_BUILD, default debug). It ends with each phase's wall time and the 20 slowest tests,
# passed or failed. Extra arguments go to `swift test` alone, e.g.
# `scripts/test.sh --filter RPCCoreTests`.
#
# Swift Testing runs at most TEST_PARALLELISM tests at once (default 4). Unbounded, the whole
# suite starts a server or a process in most of its tests at the same moment, and on two cores
# handlers, first messages and child processes then miss their deadlines.
set -euo pipefail
cd "$(dirname "$0")/.."

export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${TEST_PARALLELISM:-4}"

# Each phase's wall time, and the Swift Testing event streams of the test runs, for the table
# that ends the run (`report`), failed or not.
phases=()
events=$(mktemp -d)
report() {
  local status=$?
  if [ ${#phases[@]} -gt 0 ]; then
    echo "== phases (wall time)"
    printf '%s\n' "${phases[@]}"
    printf '%-64s %6d s\n' "total" "$SECONDS"
  fi
  if compgen -G "$events/*.jsonl" >/dev/null; then
    echo "== the 20 slowest tests"
    python3 scripts/slowest-tests.py 20 "$SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH" "$events"/*.jsonl || true
  fi
  rm -rf "$events"
  exit "$status"
}
trap report EXIT

# phase NAME COMMAND...: runs COMMAND as the phase NAME, and notes its wall time and outcome.
phase() {
  local name=$1 start=$SECONDS status=0
  shift
  echo "== $name"
  "$@" || status=$?
  phases+=("$(printf '%-64s %6d s  %s' "$name" $((SECONDS - start)) "$([ "$status" -eq 0 ] && echo ok || echo "FAILED ($status)")")")
  return "$status"
}

phase "setup" scripts/setup.sh
phase "swift build --build-tests" swift build --build-tests

# Runs `swift test "$@"`, stopping a run still going after 20 minutes (hung: the suite takes
# minutes). On failure, repeats each failed expectation and its details last, where a log
# cut to its end still shows them.
run_tests() {
  local log status
  log=$(mktemp)
  set +e
  timeout --signal=INT --kill-after=30 1200 swift test "$@" \
    --event-stream-output-path "$(mktemp -p "$events" --suffix .jsonl)" --event-stream-version 0 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  set -e
  if [ "$status" -ne 0 ]; then
    echo "== failures of swift test $* (exit status $status)"
    awk '/recorded an issue|: error: |^error:|Fatal error/ { print; details = 1; next }
         details && /^↳/ && !/^↳ \/\/\// { print; next }
         { details = 0 }' "$log" | head -n 200
  fi
  rm -f "$log"
  return "$status"
}

if [ $# -gt 0 ]; then
  phase "swift test $*" run_tests "$@"
  exit
fi
phase "swift test (all but the soak)" run_tests --skip SoakTests
phase "soak, ${CATALOG_SOAK_SECONDS:-40} s a round" run_tests --filter SoakTests

# Runs DocC (scripts/docs.sh) and the lean client builds (scripts/check-client-builds.sh) side by
# side: DocC's conversion runs on one core. Each one's output follows once both are done. (After
# the tests: a plugin command relinks a build tool in .build, which the next build relinks back.)
docs_and_lean_builds() {
  local docs_log lean_log docs_pid status=0
  docs_log=$(mktemp)
  lean_log=$(mktemp)
  scripts/docs.sh > "$docs_log" 2>&1 &
  docs_pid=$!
  scripts/check-client-builds.sh > "$lean_log" 2>&1 || status=$?
  wait "$docs_pid" || status=$?
  cat "$docs_log" "$lean_log"
  rm -f "$docs_log" "$lean_log"
  return "$status"
}
phase "DocC, beside the lean client builds" docs_and_lean_builds

# example NAME: builds the example package Examples/NAME, which depends on this one by path, in
# this package's scratch path, where every module they share is built already, so that only its
# own targets compile; then runs its tests. (Built apart: `swift test` building in a scratch path
# that holds this package's tests runs those too.)
example() {
  swift build --package-path "Examples/$1" --scratch-path "$PWD/.build" --build-tests || return
  run_tests --package-path "Examples/$1" --scratch-path "$PWD/.build" --skip-build
}
phase "swift test Examples/FormationsApp" example FormationsApp
phase "swift test Examples/Greeter" example Greeter

# A short run, built in debug (about half the build of release), the targets side by side: its
# seeds are every regression and every request of the contract; scripts/fuzz.sh on its own
# fuzzes longer.
phase "fuzz, ${FUZZ_SECONDS:-30} s a target" env FUZZ_BUILD="${FUZZ_BUILD:-debug}" scripts/fuzz.sh "${FUZZ_SECONDS:-30}"
