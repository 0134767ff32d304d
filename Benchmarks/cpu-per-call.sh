#!/usr/bin/env bash
# cpu-per-call.sh NEW BASE [ROUNDS=6] [N=200000]: catalogd's CPU (utime + stime from /proc/PID/stat)
# per Catalog/GetItem {"id":42}, two release catalogd binaries side by side (e.g. the current build
# and the build before a change), in rounds alternating between them: h2load -n N -c 8 -m 32 -t 1
# against each in turn, the two taking turns going first. Prints one line a round and target;
# CPU time counts in clock ticks (10 ms), so N should keep a round at a second of CPU or more.
set -euo pipefail
new=${1:?usage: cpu-per-call.sh NEW BASE [ROUNDS] [N]} base=${2:?usage: cpu-per-call.sh NEW BASE [ROUNDS] [N]} rounds=${3:-6} n=${4:-200000}
tmp=$(mktemp -d); pids=()
trap 'kill ${pids[@]} 2>/dev/null; wait 2>/dev/null; rm -rf $tmp' EXIT
"$new" --address 127.0.0.1:50071 --database $tmp/new.sqlite --seed-demo --log-level warning >/dev/null 2>&1 & pids+=($!); newpid=$!
"$base" --address 127.0.0.1:50072 --database $tmp/base.sqlite --seed-demo --log-level warning >/dev/null 2>&1 & pids+=($!); basepid=$!
for port in 50071 50072; do for _ in $(seq 150); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done; done
printf '\x00\x00\x00\x00\x09{"id":42}' > $tmp/req
ticks() { awk '{print $14+$15}' /proc/$1/stat; }
hz=$(getconf CLK_TCK)
for r in $(seq $rounds); do
  order="new:50071:$newpid base:50072:$basepid"
  # The two take turns going first, so that neither gains from its place in a round.
  (( r % 2 == 0 )) && order="base:50072:$basepid new:50071:$newpid"
  for t in $order; do
    IFS=: read -r label port pid <<<"$t"
    before=$(ticks $pid)
    out=$(h2load -n $n -c 8 -m 32 -t 1 -H "content-type: application/grpc+json" -H "te: trailers" -d $tmp/req http://127.0.0.1:$port/catalog.v1.Catalog/GetItem 2>&1)
    after=$(ticks $pid)
    rps=$(awk '/^finished in/ {print $4}' <<<"$out" | tr -d ,)
    ok=$(awk '/^requests:/ {print $8}' <<<"$out")
    awk -v l=$label -v r=$r -v b=$before -v a=$after -v hz=$hz -v n=$n -v rps=$rps -v ok=$ok 'BEGIN {printf "round=%d target=%s req_s=%s succeeded=%s cpu_us_per_call=%.2f\n", r, l, rps, ok, (a-b)/hz*1e6/n}'
  done
done
