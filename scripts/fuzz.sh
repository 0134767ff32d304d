#!/usr/bin/env bash
# fuzz.sh [SECONDS]: builds Fuzz/ with libFuzzer and AddressSanitizer, then fuzzes three targets
# for SECONDS (default 60) each, side by side, as many at once as there are cores: the message
# deframer and the JSON decoding of every request of the contract; a whole server connection
# (FUZZ_TARGET=connection: nghttp2, the connection handler and catalogd's router in memory); an
# HTTP/1.1 one (FUZZ_TARGET=http1: NIOHTTP1's codec and the HTTP/1.1 front end). Seeds and
# dictionaries come from Schema/catalog.v1.json, plus every input in Fuzz/Regressions
# (connection-* for the connection, http1-* for HTTP/1.1). On a crash it exits non-zero and
# prints the input (base64): add it to Fuzz/Regressions, where `swift test` replays it
# (FuzzRegressionTests), then fix the code.
#
# FUZZ_BUILD (default release) is the configuration the fuzzers are built in: release runs each
# input fastest, for long runs; debug builds in about half the time and runs the deframer about
# as fast and a connection about a third as fast, which scripts/test.sh takes for its short run.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
configuration=${FUZZ_BUILD:-release}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ld.gold fails on the sanitizer runtime's debug info; the toolchain's lld links it.
printf '{"schemaVersion": "1.0", "linker": {"path": "%s"}}\n' "$(dirname "$(readlink -f "$(command -v swiftc)")")/ld.lld" \
  > "$work/toolset.json"
# No index (SwiftPM indexes debug builds by default, for editors and test discovery): a fifth
# less compiling, and this build has neither.
swift build --package-path Fuzz -c "$configuration" --toolset "$work/toolset.json" --disable-index-store \
  -Xswiftc -sanitize=fuzzer,address --product fuzz-rpc
fuzzer="$(swift build --package-path Fuzz -c "$configuration" --show-bin-path)/fuzz-rpc"
python3 Fuzz/seeds.py Schema/catalog.v1.json "$work/seeds" "$work/dictionary" "$work/connection-seeds" "$work/connection-dictionary"
for input in Fuzz/Regressions/*; do
  case "$(basename "$input")" in
    connection-*) cp "$input" "$work/connection-seeds/" ;;
    http1-*) mkdir -p "$work/http1-seeds"; cp "$input" "$work/http1-seeds/" ;;
    *) cp "$input" "$work/seeds/" ;;
  esac
done
mkdir -p "$work/corpus" "$work/connection-corpus" "$work/http1-corpus" "$work/http1-seeds" "$work/crashes"
# Swift's backtracer reads memory that AddressSanitizer flags: libFuzzer's own report is enough.
export SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp"

# fuzz TARGET: fuzzes TARGET for SECONDS; its output goes to $work/TARGET.log, its exit status
# to $work/TARGET.status.
fuzz() {
  local status=0
  case "$1" in
    messages)
      "$fuzzer" -max_total_time="$seconds" -timeout=10 -max_len=8192 -print_final_stats=1 \
        -dict="$work/dictionary" -artifact_prefix="$work/crashes/" "$work/corpus" "$work/seeds" ;;
    connection)
      FUZZ_TARGET=connection "$fuzzer" -max_total_time="$seconds" -timeout=10 -max_len=32768 \
        -rss_limit_mb=1024 -malloc_limit_mb=64 -print_final_stats=1 -dict="$work/connection-dictionary" \
        -artifact_prefix="$work/crashes/connection-" "$work/connection-corpus" "$work/connection-seeds" ;;
    http1)
      FUZZ_TARGET=http1 "$fuzzer" -max_total_time="$seconds" -timeout=10 -max_len=32768 \
        -rss_limit_mb=1024 -malloc_limit_mb=64 -print_final_stats=1 \
        -artifact_prefix="$work/crashes/http1-" "$work/http1-corpus" "$work/http1-seeds" ;;
  esac > "$work/$1.log" 2>&1 || status=$?
  echo "$status" > "$work/$1.status"
}

# libFuzzer runs on one core: the targets run side by side, as many at once as there are cores,
# each for SECONDS.
targets=(messages connection http1)
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n || true; done
  fuzz "$target" &
done
wait
status=0
for target in "${targets[@]}"; do
  exit_status=$(cat "$work/$target.status")
  echo "== fuzz $target (exit status $exit_status), the end of its output:"
  tail -n 20 "$work/$target.log"
  [ "$exit_status" -eq 0 ] || status=1
done
for crash in "$work"/crashes/*; do
  [ -e "$crash" ] || continue
  echo "fuzz: $(basename "$crash") (base64): $(base64 -w0 "$crash")"
done
exit "$status"
