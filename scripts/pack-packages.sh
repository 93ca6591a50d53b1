#!/usr/bin/env bash
# Builds each package alone, from its own package.json and tsconfig, and packs it: `npm run pack:packages [-- DIR]`
# leaves @punctual/{contract,client,sdk,server} tarballs in DIR (dist/packages by default). The client compiles
# the contract in, and the server the contract, the client and the SDK: no tarball depends on another package of
# ours by name, so installing one never asks the npm registry for @punctual/anything.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mkdir -p "${1:-dist/packages}" && cd "${1:-dist/packages}" && pwd)"

for package in libs/contract libs/sdk libs/client libs/server; do
  rm -rf "$package/dist"
  (cd "$package" && npm run --silent build && npm pack --silent --pack-destination "$out" >/dev/null)
done
ls "$out"/punctual-*.tgz
