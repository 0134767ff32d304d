# Sourced by the benchmark scripts that load unary calls with h2load.
#   h2load_run ROUND LABEL PORT CONTENT-TYPE PATH BODY-FILE ROUNDS-FILE
#       one h2load -D $D --warm-up-time $W -c $C -m $M -t 1 run; prints and appends to ROUNDS-FILE
#       "round=R target=LABEL req_s=… p50_ms=… p99_ms=… non_2xx=…" (latencies from h2load's
#       per-request log: start µs, HTTP status, duration µs).
#   median                the median of the numbers on standard input.
#   rounds_median FILE LABEL KEY   the median of KEY (req_s, p50_ms, p99_ms) over LABEL's rounds.
h2load_run() {
  local round=$1 label=$2 port=$3 ct=$4 path=$5 body=$6 file=$7 log out rps non2xx p50 p99
  log=$(mktemp)
  out=$(h2load -D "$D" --warm-up-time "$W" -c "$C" -m "$M" -t 1 -H "content-type: $ct" -H "te: trailers" \
    -d "$body" --log-file "$log" "http://127.0.0.1:$port$path" 2>&1)
  rps=$(awk '/^finished in/ {print $4}' <<<"$out" | tr -d ,)
  non2xx=$(awk '/^status codes:/ {print $5 + $7 + $9}' <<<"$out")
  read -r p50 p99 < <(awk '{print $3}' "$log" | sort -n | awk '{v[NR]=$1} END {
    printf "%.2f %.2f\n", v[int(NR*0.50)+1]/1000, v[int(NR*0.99)+1]/1000}')
  rm -f "$log"
  echo "round=$round target=$label req_s=$rps p50_ms=$p50 p99_ms=$p99 non_2xx=$non2xx" | tee -a "$file"
}

median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

rounds_median() { grep "target=$2 " "$1" | sed "s/.*$3=\([^ ]*\).*/\1/" | median; }
