#!/usr/bin/env bash
# toolhook's MCP server and client judged by the official Python MCP SDK, both ways and in both
# protocol eras: see README.md beside this file. Uses the venv of .ci/python/venv.sh and builds the
# three example binaries it runs. Exits non-zero on any failure.
# Usage: run.sh            (from anywhere; PYTHON=python3.x picks the interpreter)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
cd "$HERE/../.."
VENV="$(bash "$HERE/../python/venv.sh")"

cargo build -q -p toolhook-examples --bin demo --bin mcp-conformance-server --bin mcp-everything-probe
bin="$(cargo metadata --format-version 1 --no-deps | "$VENV/bin/python" -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')/debug"
"$VENV/bin/python" "$HERE/check.py" --demo "$bin/demo" --conformance-server "$bin/mcp-conformance-server" \
  --probe "$bin/mcp-everything-probe"
