#!/usr/bin/env bash
# Install the official OpenAI Node.js client (pinned in testdata/openai-node/package-lock.json)
# into .cache/openai-node from the npm registry, for the e2e test that shows a second language's
# official client works against the edge-agent unchanged. Needs node and npm (Debian's nodejs
# and npm packages); nothing is installed globally.
set -euo pipefail
cd "$(cd "$(dirname "$0")" && git rev-parse --show-toplevel)"
src="$PWD/testdata/openai-node"; dir="$PWD/.cache/openai-node"
if [ -f "$dir/node_modules/openai/package.json" ] && cmp -s "$src/package-lock.json" "$dir/package-lock.json"; then
  exit 0
fi
if ! command -v npm >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    echo "installing Debian's nodejs and npm…"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm >/dev/null
  else
    echo "fetch-openai-node: npm is missing; run as root once or: sudo apt-get install nodejs npm" >&2
    exit 1
  fi
fi
echo "installing the OpenAI Node.js client into $dir…"
rm -rf "$dir"; mkdir -p "$dir"
cp "$src/package.json" "$src/package-lock.json" "$dir/"
(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
