# postgres.sh, sourced: a throwaway PostgreSQL cluster for the scripts that need one.
#   pg_cluster_start DIR   (DIR: a directory of its own, e.g. from mktemp -d) initdb into DIR/data and start a server listening only on a Unix socket
#                          in DIR (port 5432 there), with a database `catalog` owned by user
#                          `catalog` (trusted, no password); sets PG_URL to its --database URL.
#   pg_cluster_stop DIR    stop that server (fast shutdown); DIR stays for the caller to remove.
# PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user that
# Debian's package creates, and DIR is handed to that user.
pg_bin() {
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -n "$bin" ] || { echo "PostgreSQL is not installed: scripts/setup.sh installs it" >&2; return 1; }
  echo "$bin"
}

pg_as() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_cluster_start() {
  local dir=$1 bin
  bin=$(pg_bin)
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
  pg_as "$bin/initdb" -D "$dir/data" -U catalog --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log"
  pg_as "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-c listen_addresses='' -k $dir -p 5432 -c max_connections=300" start >/dev/null
  pg_as "$bin/createdb" -h "$dir" -p 5432 -U catalog catalog
  PG_URL="postgresql://catalog@/catalog?host=$dir"
}

pg_cluster_stop() {
  local bin
  bin=$(pg_bin) || return 0
  [ -f "$1/data/postmaster.pid" ] && pg_as "$bin/pg_ctl" -D "$1/data" -m fast -w stop >/dev/null 2>&1
  return 0
}
