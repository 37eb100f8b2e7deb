#!/usr/bin/env bash
# The repository stands alone: no tracked file (this script aside) reads the directory beside the
# clone, names its spec, or cites a spec document by section. Runs in seconds: a `git grep`.
# Prints file:line:text of every hit and fails if there is any.
set -uo pipefail
cd "$(dirname "$0")/.."

patterns=(
  -e '\.\./shared'                     # a path to the sibling directory
  -e 'shared/spec'                     # the spec directory, by any path
  -e '"\.\."[^"]*"shared"'             # the same path built with join("..").join("shared")
  -e '[A-Za-z0-9_-]+\.md ?§ ?[0-9]'    # a section citation: tools.md §4.2
  -e '\bspec ?§ ?[0-9]'                # the spec §3
)

git grep -nIE -i "${patterns[@]}" -- . ':(exclude).ci/standalone.sh'
case $? in
  0) echo "error: the lines above read or cite files outside the repository" >&2; exit 1 ;;
  1) echo "standalone: no tracked file reads or cites anything beside the repository" ;;
  *) echo "error: git grep failed" >&2; exit 2 ;;
esac
