#!/usr/bin/env bash
# Every docs.rs link to a workspace crate resolves in the docs `cargo doc --workspace --no-deps`
# rendered. The attribute macros' pages (sdk-macros/docs/*.md) cannot use intra-doc links to
# toolhook's items: rustdoc resolves the links of a re-exported item in the crate that defines it,
# and toolhook-macros cannot depend on toolhook. They use absolute docs.rs URLs instead, which
# rustdoc does not check; this script does.
#
# Each https://docs.rs/<crate>/latest/<crate_>/<path> URL of toolhook, toolhook-runtime or
# toolhook-macros in a tracked *.md or *.rs file is mapped to target/doc/<crate_>/<path> (a path
# ending in `/`, or none, means index.html) and fails when that file is missing, is one of
# rustdoc's redirect pages (the item's private path: link the page it redirects to), or lacks the
# `#fragment`'s id; a page of these crates linked in another form (a pinned version) fails too.
# docs.rs links to other crates, and bare crate roots, cannot be checked offline: they are counted.
# Prints file:line and URL of every broken link; exits 1 if there is any, 2 if the docs are absent.
# Runs in well under a second. Usage: `bash .ci/doc-links.sh`, after the cargo doc step of .ci/run.
set -uo pipefail
cd "$(dirname "$0")/.."
DOC="${CARGO_TARGET_DIR:-target}/doc"

if [ ! -f "$DOC/toolhook/index.html" ] || [ ! -f "$DOC/toolhook_runtime/index.html" ]; then
  echo "error: $DOC/toolhook and $DOC/toolhook_runtime are missing: run" \
    "\`RUSTDOCFLAGS=-Dwarnings cargo doc --workspace --no-deps\` first" >&2
  exit 2
fi

# file:line:url for every docs.rs URL; the URL ends before whitespace, quotes, brackets or a
# backtick, and a trailing . , ; or : (the end of a sentence) is not part of it.
hits="$(git grep -nIoE 'https://docs\.rs/[^][:space:]()<>"'"'"'`]*' -- '*.md' '*.rs')"
case $? in
  0 | 1) ;;
  *) echo "error: git grep failed" >&2; exit 2 ;;
esac

checked=0 broken=0 other=0
declare -A seen_ok=()
while IFS= read -r hit; do
  [ -n "$hit" ] || continue
  file="${hit%%:*}"; rest="${hit#*:}"; line="${rest%%:*}"; url="${rest#*:}"
  url="${url%%[.,;:]}"
  if [[ ! "$url" =~ ^https://docs\.rs/(toolhook|toolhook-runtime|toolhook-macros)/latest/(toolhook|toolhook_runtime|toolhook_macros)(/.*)?$ ]] \
    || [ "${BASH_REMATCH[1]//-/_}" != "${BASH_REMATCH[2]}" ]; then
    if [[ "$url" =~ ^https://docs\.rs/(toolhook|toolhook-runtime|toolhook-macros)/[^/]+/ ]]; then
      # A page of a workspace crate in another form (a pinned version, another crate's path).
      echo "$file:$line: $url: not checkable: write https://docs.rs/${BASH_REMATCH[1]}/latest/${BASH_REMATCH[1]//-/_}/…"
      broken=$((broken + 1))
    else
      other=$((other + 1))
    fi
    continue
  fi
  checked=$((checked + 1))
  [ -n "${seen_ok[$url]:-}" ] && continue
  crate="${BASH_REMATCH[2]}"; path="${BASH_REMATCH[3]#/}"
  fragment=""
  if [[ "$path" == *"#"* ]]; then fragment="${path#*#}"; path="${path%%#*}"; fi
  if [ -z "$path" ] || [[ "$path" == */ ]]; then path="${path}index.html"; fi
  target="$DOC/$crate/$path"
  problem=""
  if [ ! -f "$target" ]; then
    problem="no page $target"
  elif grep -q '<meta http-equiv="refresh"' "$target"; then
    to="$(grep -o 'URL=[^"]*' "$target" | head -n1)"
    problem="a redirect page; link the page it redirects to (${to#URL=}, relative to $target)"
  elif [ -n "$fragment" ] && ! grep -qF "id=\"$fragment\"" "$target"; then
    problem="no id \"$fragment\" in $target"
  fi
  if [ -n "$problem" ]; then
    echo "$file:$line: $url: $problem"
    broken=$((broken + 1))
  else
    seen_ok[$url]=1
  fi
done <<<"$hits"

echo "doc links: $checked links to workspace crates checked against $DOC," \
  "$other docs.rs links to other crates (or crate roots) not checkable offline"
if [ "$broken" -gt 0 ]; then
  echo "error: $broken broken docs.rs link(s) above" >&2
  exit 1
fi
