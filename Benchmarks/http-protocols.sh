#!/usr/bin/env bash
# http-protocols.sh: the protocols on catalogd's one port, measured in one run with h2load
# (Catalog/GetItem {"id":42}, release catalogd on a fresh demo SQLite store).
#   1. HTTP/2, -c 8 -m 32 -t 1: gRPC (application/grpc+json) against Connect (application/json),
#      the two taking turns going first, ROUNDS rounds of N requests each.
#   2. HTTP/1.1 keep-alive, h2load --h1 -c 8 -m 1 -t 1: catalogd's Connect against a Hummingbird 2
#      server answering the same JSON from memory (Benchmarks/HummingbirdPeer) and nginx serving it
#      as a static file (the ceiling), in turn, ROUNDS rounds of N1 requests each.
# Prints one line per measurement (with the server's CPU time per call, from /proc, for catalogd and
# Hummingbird) and the medians. Installs nginx (apt) when missing.
# Environment: ROUNDS=5 N=200000 N1=100000.
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cd "$root"
source "$root/Benchmarks/lib/processes.sh"
ROUNDS=${ROUNDS:-5} N=${N:-200000} N1=${N1:-100000}
command -v nginx >/dev/null || { apt-get install -y --no-install-recommends nginx >/dev/null; }
swift build -c release --product catalogd
swift build -c release --package-path Benchmarks/HummingbirdPeer

.build/release/catalogd --address 127.0.0.1:50081 --database "$tmpdir/bench.sqlite" --seed-demo --log-level warning \
  > "$tmpdir/catalogd.log" 2>&1 & pids+=($!); catalogd_pid=$!
wait_port 50081 catalogd "$tmpdir/catalogd.log"
printf '{"id":42}' > "$tmpdir/connect.req"
printf '\x00\x00\x00\x00\x09{"id":42}' > "$tmpdir/grpc.req"
mkdir -p "$tmpdir/www/catalog.v1.Catalog"
curl -s -d @"$tmpdir/connect.req" -H 'content-type: application/json' http://127.0.0.1:50081/catalog.v1.Catalog/GetItem \
  > "$tmpdir/www/catalog.v1.Catalog/GetItem"
grep -q '"id":42' "$tmpdir/www/catalog.v1.Catalog/GetItem" || { echo "catalogd did not answer GetItem 42" >&2; exit 1; }
chmod o+x "$tmpdir"; chmod -R o+rX "$tmpdir/www"  # nginx's workers run as another user

Benchmarks/HummingbirdPeer/.build/release/HummingbirdPeer 50082 "$tmpdir/www/catalog.v1.Catalog/GetItem" \
  > "$tmpdir/hummingbird.log" 2>&1 & pids+=($!); hummingbird_pid=$!
wait_port 50082 hummingbird "$tmpdir/hummingbird.log"
cat > "$tmpdir/nginx.conf" <<CONF
worker_processes 1;
pid $tmpdir/nginx.pid;
error_log $tmpdir/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  default_type application/json;
  keepalive_requests 100000000;
  server {
    listen 127.0.0.1:50083;
    root $tmpdir/www;
    # A POST to a static file is 405 in nginx: answer it with the file, as the others do.
    error_page 405 =200 \$uri;
  }
}
CONF
nginx -c "$tmpdir/nginx.conf" -g 'daemon off;' > "$tmpdir/nginx.log" 2>&1 & pids+=($!)
wait_port 50083 nginx "$tmpdir/nginx.log"

rps() { awk '/^finished in/ {gsub(",", "", $4); print $4}'; }
ok() { awk '/^requests:/ {print $8}'; }
ticks() { awk '{print $14+$15}' "/proc/$1/stat"; }
measure() {  # measure LABEL PID h2load-arguments...: one line; req/s (and CPU per call when PID is not -) kept per LABEL
  local label=$1 pid=$2; shift 2
  local before=0; [ "$pid" != - ] && before=$(ticks "$pid")
  local out; out=$(h2load "$@" 2>&1)
  local r s n; r=$(rps <<<"$out"); s=$(ok <<<"$out"); n=$(awk '/^requests:/ {print $2}' <<<"$out")
  local cpu=""
  if [ "$pid" != - ]; then
    cpu=$(awk -v b="$before" -v a="$(ticks "$pid")" -v hz="$(getconf CLK_TCK)" -v n="$n" 'BEGIN {printf "%.2f", (a-b)/hz*1e6/n}')
    echo "$cpu" >> "$tmpdir/$label.cpu"
  fi
  echo "target=$label req_s=$r succeeded=$s${cpu:+ cpu_us_per_call=$cpu}"
  echo "$r" >> "$tmpdir/$label"
}
for r in $(seq "$ROUNDS"); do
  order="grpc connect"; (( r % 2 == 0 )) && order="connect grpc"
  for t in $order; do
    if [ "$t" = grpc ]; then
      measure h2-grpc "$catalogd_pid" -n "$N" -c 8 -m 32 -t 1 -H 'content-type: application/grpc+json' -H 'te: trailers' -d "$tmpdir/grpc.req" \
        http://127.0.0.1:50081/catalog.v1.Catalog/GetItem
    else
      measure h2-connect "$catalogd_pid" -n "$N" -c 8 -m 32 -t 1 -H 'content-type: application/json' -d "$tmpdir/connect.req" \
        http://127.0.0.1:50081/catalog.v1.Catalog/GetItem
    fi
  done
  h1order="catalogd:50081:$catalogd_pid hummingbird:50082:$hummingbird_pid nginx:50083:-"
  (( r % 2 == 0 )) && h1order="nginx:50083:- hummingbird:50082:$hummingbird_pid catalogd:50081:$catalogd_pid"
  for t in $h1order; do
    IFS=: read -r name port pid <<<"$t"
    measure "h1-$name" "$pid" --h1 -n "$N1" -c 8 -m 1 -t 1 -H 'content-type: application/json' -d "$tmpdir/connect.req" \
      "http://127.0.0.1:$port/catalog.v1.Catalog/GetItem"
  done
done
median() { sort -n "$tmpdir/$1" | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
echo "medians (req/s) over $ROUNDS rounds:"
for l in h2-grpc h2-connect h1-catalogd h1-hummingbird h1-nginx; do
  printf '  %-15s %s' "$l" "$(median $l)"
  [ -e "$tmpdir/$l.cpu" ] && printf '  (CPU %s us a call; spread %s to %s)' "$(median $l.cpu)" "$(sort -n "$tmpdir/$l.cpu" | head -1)" "$(sort -n "$tmpdir/$l.cpu" | tail -1)"
  printf '\n'
done
awk -v c="$(median h2-connect)" -v g="$(median h2-grpc)" 'BEGIN {printf "  HTTP/2 Connect / gRPC: %.3f\n", c/g}'
awk -v c="$(median h1-catalogd)" -v h="$(median h1-hummingbird)" -v n="$(median h1-nginx)" \
  'BEGIN {printf "  HTTP/1.1 catalogd / Hummingbird: %.3f; catalogd / nginx: %.3f\n", c/h, c/n}'
