# Sourced by the benchmark scripts: a scratch directory ($tmpdir), the processes they start
# (append each PID to `pids`; all are stopped and $tmpdir removed on exit), and wait_port.
tmpdir=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$tmpdir"
}
trap cleanup EXIT
wait_port() {  # wait_port PORT LABEL LOG: bounded wait until 127.0.0.1:PORT accepts connections
  for _ in $(seq 150); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done
  echo "$2 (127.0.0.1:$1) not listening; its log:" >&2; tail -n 20 "$3" >&2; exit 1
}
