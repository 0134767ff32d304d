#!/usr/bin/env bash
# check-client-core.sh: builds CatalogKit and RPCURLSession as they build for iOS, without the
# HTTP/2 transport (no libnghttp2, no SwiftNIO), in a scratch directory of their own, and says
# how long the clean build took and which modules it compiled. Fails if either does not build
# or if SwiftNIO or nghttp2 was compiled.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
start=$(date +%s)
CATALOGKIT_WITHOUT_HTTP2=1 swift build --scratch-path "$scratch" --target CatalogKit
CATALOGKIT_WITHOUT_HTTP2=1 swift build --scratch-path "$scratch" --target RPCURLSession
elapsed=$(( $(date +%s) - start ))
modules=$(find "$scratch" -name '*.swiftmodule' -path '*/Modules/*' -exec basename {} .swiftmodule \; | sort | tr '\n' ' ')
echo "check-client-core.sh: built in ${elapsed} s: $modules"
if echo " $modules " | grep -qE ' (NIOCore|NIOPosix|RPCHTTP2|NIOSSL) '; then
  echo "check-client-core.sh: the client core compiled the HTTP/2 transport" >&2
  exit 1
fi
