#!/usr/bin/env bash
# Builds each package alone, from its own package.json and tsconfig (contract first: the client and
# the server compile against its declarations), and packs it: `npm run pack:packages [-- DIR]`
# leaves @punctual/{contract,client,sdk,server} tarballs in DIR (dist/packages by default).
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mkdir -p "${1:-dist/packages}" && cd "${1:-dist/packages}" && pwd)"

for package in libs/contract libs/sdk libs/client apps/server; do
  rm -rf "$package/dist"
  (cd "$package" && npm run --silent build && npm pack --silent --pack-destination "$out" >/dev/null)
done
ls "$out"/punctual-*.tgz
