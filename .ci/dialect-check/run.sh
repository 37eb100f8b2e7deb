#!/usr/bin/env bash
# Validates every example tool's definition, in every dialect and locale, with the official client
# libraries (openai, anthropic, google-genai, mcp) and jsonschema: see README.md beside this file.
# Uses the venv of .ci/python/venv.sh (made once, with the versions pinned in
# .ci/python/requirements.txt), prints the definitions with `demo --definitions-json` and runs
# check.py on them. Exits non-zero on any failure.
# Usage: run.sh            (from anywhere; PYTHON=python3.x picks the interpreter)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
cd "$HERE/../.."
VENV="$(bash "$HERE/../python/venv.sh")"

OUT="$(mktemp -d /tmp/toolhook-dialect-check.XXXXXX)"
cargo run -q -p toolhook-examples --bin demo -- --definitions-json >"$OUT/definitions.json"
if "$VENV/bin/python" "$HERE/check.py" "$OUT/definitions.json"; then
  rm -rf "$OUT"
else
  rc=$?
  echo "the definitions checked are kept in $OUT/definitions.json"
  exit $rc
fi
