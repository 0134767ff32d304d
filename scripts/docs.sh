#!/usr/bin/env bash
# docs.sh [OUTPUT]: builds the DocC documentation of the CatalogKit library (the catalog in
# Clients/CatalogKit/CatalogKit.docc and the `///` comments of its public symbols), of the
# CatalogViewModels library (its `///` comments) and of RPCCore (Sources/RPCCore/RPCCore.docc,
# with the article "Your own service on RPCCore") with swift-docc-plugin, into
# OUTPUT/<target>.doccarchive (OUTPUT default: a temporary directory, removed afterwards). Fails on any warning: a broken symbol link, an
# unknown topic, an undocumented parameter of a documented function.
set -euo pipefail
cd "$(dirname "$0")/.."
output="${1:-}"
log=$(mktemp)
if [ -z "$output" ]; then
  output=$(mktemp -d)
  trap 'rm -rf "$log" "$output"' EXIT
else
  trap 'rm -f "$log"' EXIT
fi
for target in CatalogKit CatalogViewModels RPCCore; do
  set +e
  swift package --allow-writing-to-directory "$output" \
    generate-documentation --target "$target" --output-path "$output/$target.doccarchive" --warnings-as-errors 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  set -e
  if [ "$status" -ne 0 ] || grep -q "warning:" "$log"; then
    echo "docs.sh: DocC reported warnings or failed for $target (exit status $status)" >&2
    exit 1
  fi
  echo "docs.sh: documentation of $target built without warnings in $output/$target.doccarchive"
done
