#!/usr/bin/env bash
# test.sh [swift test args...]: sets up the machine, builds everything including the tests, then
# runs every test suite with `swift test`, the soak test (SoakTests) on its own afterwards so that
# its load does not slow the other suites, then fuzzes the deframer and request decoding for
# FUZZ_SECONDS (default 60; scripts/fuzz.sh). Extra arguments go to `swift test` and skip the
# soak and the fuzzing, e.g. `scripts/test.sh --filter RPCCoreTests`.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== setup"
scripts/setup.sh
echo "== swift build --build-tests"
swift build --build-tests
echo "== swift test $*"
# The suite takes seconds; a run still going after 20 minutes is hung: fail instead of waiting.
if [ $# -gt 0 ]; then
  exec timeout --signal=INT --kill-after=30 1200 swift test "$@"
fi
timeout --signal=INT --kill-after=30 1200 swift test --skip SoakTests
echo "== soak test, ${CATALOG_SOAK_SECONDS:-40} s a round"
timeout --signal=INT --kill-after=30 1200 swift test --filter SoakTests
echo "== fuzz for ${FUZZ_SECONDS:-60} s"
scripts/fuzz.sh "${FUZZ_SECONDS:-60}"
