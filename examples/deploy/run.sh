#!/usr/bin/env bash
# Scale-out of toolhook's MCP server behind nginx, on loopback:
#   1. N stateless instances (MCP 2026-07-28) behind round-robin: >= 10,000 calls, calls/s and
#      lost calls, against 1 instance alone for comparison;
#   2. a call that asks a question (input required) finishing on another instance than it began;
#   3. an instance killed mid-run: no call lost;
#   4. N instances with sessions (MCP 2025-11-25), sessions routed by their tag: no call lost.
# Usage: examples/deploy/run.sh [N] [CALLS]     (defaults 2 and 10000). Installs nginx if missing.
set -euo pipefail
N="${1:-2}"; CALLS="${2:-10000}"
cd "$(dirname "$0")/../.."
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
  echo "nginx is missing: installing the distribution's package (apt-get install nginx-light)"
  apt-get install -y -q nginx-light >/dev/null || { echo "could not install nginx"; exit 1; }
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
cargo build -q --release -p toolhook-examples --bin mcp-instance --bin mcp-load
BIN=target/release
WORK=$(mktemp -d /tmp/toolhook-deploy.XXXXXX)
KEY=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
BASE=$((20000 + RANDOM % 20000)); LB=$BASE
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null; wait 2>/dev/null || true; }
trap cleanup EXIT

wait_port() { for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; echo "port $1 did not open"; exit 1; }

start_instances() { # $1: extra flags
  pids=()
  for i in $(seq 1 "$N"); do
    "$BIN/mcp-instance" --port $((BASE + i)) --name "i$i" --key "$KEY" $1 2>"$WORK/i$i.log" &
    pids+=($!)
  done
  for i in $(seq 1 "$N"); do wait_port $((BASE + i)); done
}

start_nginx() {
  local upstreams="" sessions=""
  for i in $(seq 1 "$N"); do
    upstreams+="        server 127.0.0.1:$((BASE + i)) max_fails=1 fail_timeout=2s;"$'\n'
    sessions+="        ~^i$i\\. 127.0.0.1:$((BASE + i));"$'\n'
  done
  mkdir -p "$WORK/body" "$WORK/proxy"
  python3 - "$WORK" "$LB" "$upstreams" "$sessions" <<'PY'
import sys
work, port, upstreams, sessions = sys.argv[1:]
text = open("examples/deploy/nginx.conf.template").read()
for key, value in {"@PREFIX@": work, "@PORT@": port, "@UPSTREAMS@": upstreams.rstrip(), "@SESSIONS@": sessions.rstrip()}.items():
    text = text.replace(key, value)
open(f"{work}/nginx.conf", "w").write(text)
PY
  "$NGINX" -p "$WORK" -c "$WORK/nginx.conf" 2>"$WORK/nginx.stderr" &
  wait_port "$LB"
}

stop_all() { cleanup; pids=(); rm -f "$WORK/nginx.pid"; sleep 0.3; }

echo "== 1 instance, no proxy: $CALLS calls (MCP 2026-07-28)"
N_SAVED=$N; N=1; start_instances --stateless
"$BIN/mcp-load" --url "http://127.0.0.1:$((BASE + 1))/mcp" --calls "$CALLS"
stop_all; N=$N_SAVED

echo "== $N stateless instances behind nginx round-robin: $CALLS calls (MCP 2026-07-28)"
start_instances --stateless; start_nginx
"$BIN/mcp-load" --url "http://127.0.0.1:$LB/mcp" --calls "$CALLS"

echo "== a call that asks a question, answered on another instance than it began on"
"$BIN/mcp-load" --url "http://127.0.0.1:$LB/mcp" --confirm-demo

echo "== an instance killed mid-run: $CALLS calls, instance i$N killed after 1 s"
"$BIN/mcp-load" --url "http://127.0.0.1:$LB/mcp" --calls "$CALLS" --concurrency 16 &
load=$!
sleep 1; kill -9 "${pids[$((N - 1))]}"; echo "   (killed i$N)"
wait $load
stop_all

echo "== $N instances with sessions (MCP 2025-11-25), routed by session tag: $CALLS calls"
start_instances ""; start_nginx
"$BIN/mcp-load" --url "http://127.0.0.1:$LB/mcp" --calls "$CALLS" --legacy --clients 8
echo "== done (logs in $WORK)"
