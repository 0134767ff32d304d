#!/usr/bin/env bash
# check-client-builds.sh: builds the client the two lean ways an app may take it, each in a
# scratch directory of its own, and says how long each took and which modules it compiled:
# - CatalogKit and RPCURLSession as they build for iOS: no HTTP/2 transport (no libnghttp2, no
#   SwiftNIO);
# - CatalogKit over HTTP/2 without the ClientTLS trait, as a package that connects over
#   cleartext builds it (Tests/CleartextClient, whose tests then connect in cleartext and see
#   TLS refused): no NIOSSL (BoringSSL), no ServiceLifecycle, no server code.
# Fails if either does not build, compiles a module it should not, or the tests fail.
set -euo pipefail
cd "$(dirname "$0")/.."

# modules SCRATCH: the Swift modules a build in SCRATCH compiled, space-separated.
modules() {
  find "$1" -name '*.swiftmodule' -path '*/Modules/*' -exec basename {} .swiftmodule \; | sort | tr '\n' ' '
}

# refuse NAME MODULES PATTERN: fails if a module of MODULES matches the extended regex PATTERN.
refuse() {
  local unwanted
  unwanted=$(echo "$2" | tr ' ' '\n' | grep -xE "$3" | tr '\n' ' ' || true)
  if [ -n "$unwanted" ]; then
    echo "check-client-builds.sh: $1 compiled $unwanted" >&2
    exit 1
  fi
}

# The scratch directories live in .build, named after the manifests: a build there again
# compiles only what changed, and a changed manifest, which may change the modules, starts clean.
key=$(cat Package.swift Tests/CleartextClient/Package.swift | sha256sum | cut -c1-12)
core="$PWD/.build/lean-without-http2-$key"
cleartext="$PWD/.build/lean-cleartext-$key"
find .build -maxdepth 1 -name 'lean-*' ! -name "*-$key" -exec rm -rf {} + 2>/dev/null || true

start=$(date +%s)
# No index (SwiftPM indexes debug builds by default, for editors and test discovery): less
# compiling, and this build has no tests.
CATALOGKIT_WITHOUT_HTTP2=1 swift build --scratch-path "$core" --disable-index-store --target CatalogKit
CATALOGKIT_WITHOUT_HTTP2=1 swift build --scratch-path "$core" --disable-index-store --target RPCURLSession
found=$(modules "$core")
echo "check-client-builds.sh: CatalogKit without HTTP/2 built in $(( $(date +%s) - start )) s: $found"
refuse "CatalogKit without HTTP/2" "$found" 'NIO.*|RPCHTTP2.*'

start=$(date +%s)
swift build --package-path Tests/CleartextClient --scratch-path "$cleartext" --build-tests
found=$(modules "$cleartext")
echo "check-client-builds.sh: CatalogKit over cleartext HTTP/2 built in $(( $(date +%s) - start )) s: $found"
refuse "CatalogKit over cleartext HTTP/2" "$found" 'NIOSSL|NIOTLS|RPCHTTP2|RPCHTTP2TLS|ServiceLifecycle|NIOHTTP1|Catalog(Server|Services|Store).*'
echo "$found" | grep -qw RPCHTTP2Client || { echo "check-client-builds.sh: RPCHTTP2Client was not built" >&2; exit 1; }
swift test --package-path Tests/CleartextClient --scratch-path "$cleartext" --skip-build
