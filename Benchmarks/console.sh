#!/usr/bin/env bash
# console.sh: the web console's timings in Chromium (Console/console_timing.py): the first paint
# of #/items from navigation (LOADS loads, the cache cleared before each), and a Select made by
# the `catalog` CLI reaching an open #/filters page (SELECTS times; from the CLI's start and from
# its exit to the page applying it). A release catalogd with the demo catalog on PORT.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${PORT:-50051} loads=${LOADS:-10} selects=${SELECTS:-200}
swift build -c release --product catalogd >/dev/null
swift build -c release --product catalog >/dev/null
tmp=$(mktemp -d); pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; wait 2>/dev/null; rm -rf $tmp' EXIT
.build/release/catalogd --address 127.0.0.1:$port --database $tmp/catalog.sqlite --seed-demo --log-level warning >/dev/null 2>&1 & pid=$!
for _ in $(seq 150); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
python3 Benchmarks/Console/console_timing.py --port $port --cli .build/release/catalog --loads $loads --selects $selects
