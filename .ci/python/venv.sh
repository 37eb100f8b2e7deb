#!/usr/bin/env bash
# Prints the path of the Python venv the CI checks share (the official client libraries, pinned in
# requirements.txt beside this script), creating it first when needed. The venv lives under
# $HOME/.cache/toolhook-ci/python-venv-<hash> (TOOLHOOK_CI_DIR moves $HOME/.cache/toolhook-ci); the
# hash covers requirements.txt and the Python version, so a changed pin makes a new venv. Needs
# `python3` with `venv` (PYTHON=python3.x picks another), and PyPI the first time.
# Progress goes to stderr; stdout is the path alone.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
D="${TOOLHOOK_CI_DIR:-$HOME/.cache/toolhook-ci}"
PYTHON="${PYTHON:-python3}"

key="$( { cat "$HERE/requirements.txt"; "$PYTHON" -c 'import sys; print(sys.version)'; } | sha256sum | cut -c1-16)"
VENV="$D/python-venv-$key"
if [ ! -f "$VENV/.complete" ]; then
  echo "creating the venv $VENV ($("$PYTHON" --version); pinned: $(grep -v '^#' "$HERE/requirements.txt" | paste -sd ' '))" >&2
  mkdir -p "$D"
  # The marker below is written last: a venv without it (an install cut short) is made again.
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV" >&2
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
    -r "$HERE/requirements.txt" >&2
  touch "$VENV/.complete"
fi
echo "$VENV"
