#!/usr/bin/env bash
# Validates every example tool's definition, in every dialect and locale, with the official client
# libraries (openai, anthropic, google-genai, mcp) and jsonschema: see README.md beside this file.
# Creates, once, a Python venv with the versions pinned in requirements.txt under
# $HOME/.cache/toolhook-ci/dialect-venv-<hash> (the hash of requirements.txt and of the Python
# version; an existing one is reused), prints the definitions with `demo --definitions-json` and
# runs check.py on them. Exits non-zero on any failure.
# Usage: run.sh            (from anywhere; PYTHON=python3.x picks the interpreter)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
cd "$HERE/../.."
D="${TOOLHOOK_CI_DIR:-$HOME/.cache/toolhook-ci}"
PYTHON="${PYTHON:-python3}"

key="$( { cat "$HERE/requirements.txt"; "$PYTHON" -c 'import sys; print(sys.version)'; } | sha256sum | cut -c1-16)"
VENV="$D/dialect-venv-$key"
if [ ! -f "$VENV/.complete" ]; then
  echo "creating the venv $VENV ($("$PYTHON" --version); pinned: $(grep -v '^#' "$HERE/requirements.txt" | paste -sd ' '))"
  mkdir -p "$D"
  # The marker below is written last: a venv without it (an install cut short) is made again.
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
    -r "$HERE/requirements.txt"
  touch "$VENV/.complete"
fi

OUT="$(mktemp -d /tmp/toolhook-dialect-check.XXXXXX)"
cargo run -q -p toolhook-examples --bin demo -- --definitions-json >"$OUT/definitions.json"
if "$VENV/bin/python" "$HERE/check.py" "$OUT/definitions.json"; then
  rm -rf "$OUT"
else
  rc=$?
  echo "the definitions checked are kept in $OUT/definitions.json"
  exit $rc
fi
