#!/usr/bin/env bash
# setup.sh: idempotent machine setup for building, testing and benchmarking catalog.
#   1. apt: libnghttp2, nghttp2 tools (h2load, nghttp, nghttpd, nghttpx), curl, pkg-config, zlib, SQLite headers,
#      tmux (the CLI's terminal tests), PostgreSQL (the tests start throwaway clusters of their own;
#      the package's own cluster is not used), Chromium and its WebDriver (the web console's
#      tests); apt is skipped entirely when every package is already installed.
#   2. pip: Tests/requirements.txt (grpcio for the interop tests, PyYAML to read the CLI's YAML,
#      h2 for the tests that play a hostile HTTP/2 client, cbor2 for the CBOR peer, connectrpc
#      and httpx for the Connect and gRPC-Web clients, selenium to drive Chromium); skipped when
#      the pinned grpcio version, PyYAML, h2, cbor2, connectrpc, httpx and selenium already import.
# Uses sudo only when not root and sudo exists.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(libnghttp2-dev nghttp2-client nghttp2-server nghttp2-proxy curl pkg-config zlib1g-dev libsqlite3-dev tmux postgresql
  chromium chromium-driver)
as_root=()
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then as_root=(sudo); fi

missing=()
for p in "${packages[@]}"; do
  [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: apt-get install (missing: ${missing[*]})"
  "${as_root[@]}" apt-get update
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${packages[@]}"
else
  echo "setup: apt packages already installed"
fi

want=$(sed -n 's/^grpcio==//p' Tests/requirements.txt)
have=$(python3 -c 'import grpc; print(grpc.__version__)' 2>/dev/null || true)
if [ "$have" != "$want" ] || ! python3 -c 'import yaml, h2, cbor2, connectrpc, httpx, selenium' 2>/dev/null; then
  echo "setup: pip install -r Tests/requirements.txt (grpcio ${have:-absent} -> $want)"
  python3 -m pip install --quiet -r Tests/requirements.txt
else
  echo "setup: grpcio $have, PyYAML, h2, cbor2, connectrpc, httpx and selenium already installed"
fi
