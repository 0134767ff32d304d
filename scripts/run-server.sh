#!/usr/bin/env bash
# run-server.sh [catalogd args...]: sets up the machine, builds catalogd (release) and runs it in
# the foreground with the given arguments (none: 127.0.0.1:50051, SQLite store in the working dir).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product catalogd
exec .build/release/catalogd "$@"
