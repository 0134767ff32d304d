#!/usr/bin/env bash
# idle-streams.sh: server memory per idle stream. Starts release catalogd on 127.0.0.1:50051 with a
# fresh SQLite store, reads its VmRSS, opens SUBSCRIBERS idle streams with the shared C client
# (../shared/peers/fanout, `fanout idle`), reads VmRSS again while they are held, and prints
#   streams=N rss_before_kib=.. rss_holding_kib=.. per_stream_bytes=..
# The RPC: `fanout idle` opens server-streaming POST /catalog.v1.Filters/Watch {"filterId": FILTER}
# calls spread over CONNECTIONS connections, waits for each one's snapshot + synced, then holds them
# HOLD_S seconds. The path is fixed in fanout.c; the filter id is configurable. Idle mode does not
# create the filter, so a one-subscriber `fanout --changes 0` run first does Filters/Get, and
# Filters/Define (4 options) when NOT_FOUND; the "before" RSS is read after that run.
# With RPC=health (the default) the streams are
# grpc.health.v1.Health/Watch calls held open by h2load (SUBSCRIBERS requests, CONNECTIONS
# connections, SUBSCRIBERS/CONNECTIONS streams each); the holding RSS is read once it stops growing.
# Environment (defaults): RPC=health|filters SUBSCRIBERS=10000 CONNECTIONS=100 HOLD_S=10 FILTER=bench
#   CT=application/grpc BATCH=0 (open the streams BATCH at a time) TOKEN= (Bearer, for Define/Watch)
#   CATALOGD= (another catalogd binary, e.g. the build before a change; the current build otherwise)
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
peers=$root/../shared/peers
SUBSCRIBERS=${SUBSCRIBERS:-10000} CONNECTIONS=${CONNECTIONS:-100} HOLD_S=${HOLD_S:-10}
FILTER=${FILTER:-bench} CT=${CT:-application/grpc} BATCH=${BATCH:-0} RPC=${RPC:-health}
cd "$root"
catalogd=${CATALOGD:-}
[ -n "$catalogd" ] || { swift build -c release --product catalogd; catalogd=.build/release/catalogd; }

source "$root/Benchmarks/lib/processes.sh"
# One client on 127.0.0.1 stands for many callers: it may hold every Watch slot, up to a
# connection's 1024 streams on each connection.
"$catalogd" --address 127.0.0.1:50051 --database "$tmpdir/bench.sqlite" \
  --max-watch-subscribers-per-caller 100000 --max-watch-subscribers-per-connection 1024 \
  > "$tmpdir/catalogd.log" 2>&1 & pids+=($!)
server=${pids[0]}
wait_port 50051 catalogd "$tmpdir/catalogd.log"
rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$server/status"; }

if [ "$RPC" = health ]; then
  printf '\x00\x00\x00\x00\x02{}' > "$tmpdir/watch.req"
  before=$(rss_kib)
  h2load -n "$SUBSCRIBERS" -c "$CONNECTIONS" -m $((SUBSCRIBERS / CONNECTIONS)) -H "content-type: $CT" -H 'te: trailers' \
    -d "$tmpdir/watch.req" http://127.0.0.1:50051/grpc.health.v1.Health/Watch > "$tmpdir/h2load.log" 2>&1 & pids+=($!)
  last=0 holding=0
  for _ in $(seq 120); do  # every stream answered its first message once RSS stops growing
    sleep 0.5; holding=$(rss_kib)
    [ "$holding" = "$last" ] && [ "$holding" -gt "$before" ] && break
    last=$holding
  done
  connections=$(ss -tn state established '( sport = :50051 )' | tail -n +2 | wc -l)
  echo "streams=$SUBSCRIBERS connections=$connections rss_before_kib=$before rss_holding_kib=$holding" \
    "per_stream_bytes=$(( (holding - before) * 1024 / SUBSCRIBERS ))"
  exit 0
fi

make -s -C "$peers/fanout"
fanout=$peers/fanout/fanout

common=(--target 127.0.0.1:50051 --content-type "$CT" --filter "$FILTER")
[ -n "${TOKEN:-}" ] && common+=(--token "$TOKEN")
"$fanout" "${common[@]}" --subscribers 1 --connections 1 --changes 0 > /dev/null 2> "$tmpdir/setup.err" \
  || { echo "filter setup failed:" >&2; cat "$tmpdir/setup.err" >&2; exit 1; }
sleep 1
before=$(rss_kib)

"$fanout" idle "${common[@]}" --subscribers "$SUBSCRIBERS" --connections "$CONNECTIONS" \
  --hold-s "$HOLD_S" --subscribe-batch "$BATCH" > "$tmpdir/idle.json" 2> "$tmpdir/idle.err" & pids+=($!)
idle=${pids[1]}
for _ in $(seq 1200); do  # the client's own --timeout-s (60) bounds the subscribe phase
  grep -qs '^fanout: holding' "$tmpdir/idle.err" && break
  kill -0 "$idle" 2>/dev/null || break
  sleep 0.1
done
grep -qs '^fanout: holding' "$tmpdir/idle.err" || { echo "fanout never held its streams:" >&2; cat "$tmpdir/idle.err" >&2; exit 1; }
sleep 1  # let the server settle after the last synced
holding=$(rss_kib)
established=$(sed -n 's/^fanout: holding pid=[0-9]* established=\([0-9]*\).*/\1/p' "$tmpdir/idle.err")
status=0
wait "$idle" || status=$?
echo "# fanout: $(cat "$tmpdir/idle.json")" >&2
per=$(( established > 0 ? (holding - before) * 1024 / established : 0 ))
echo "streams=$established rss_before_kib=$before rss_holding_kib=$holding per_stream_bytes=$per"
[ "$established" = "$SUBSCRIBERS" ] && [ $status = 0 ] || { echo "not every stream held (fanout exit $status)" >&2; exit 1; }
