#!/usr/bin/env bash
# Runs a command beside a real model: llama.cpp's llama-server with Qwen2.5-Coder-1.5B-Instruct
# (installed and cached by setup.sh) on a free port of 127.0.0.1, its base URL in
# TOOL_LLM_URL; the server is stopped when the command ends, however it ends.
#
# Usage: bash tests/llm/serve.sh COMMAND [ARGS...]
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/port.sh
here=tests/llm
{ read -r server; read -r model; } < <(bash "$here/setup.sh")
port=$(free_port)
log=$(mktemp)
# One slot (requests queue), an 8k context, the chat template that makes this model's tool
# calls parse (see the template's header), the API alone.
"$server" --host 127.0.0.1 --port "$port" -m "$model" --alias qwen2.5-coder-1.5b-instruct \
    --jinja --chat-template-file "$here/qwen2.5-coder-tools.jinja" -c 8192 -np 1 -t "$(nproc)" \
    --no-webui >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 1 240); do
    if ! kill -0 "$pid" 2>/dev/null; then
        tail -20 "$log" >&2
        echo "llama-server exited during start-up" >&2
        exit 1
    fi
    curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    sleep 0.5
done
curl -fs "http://127.0.0.1:$port/health" >/dev/null || { tail -20 "$log" >&2; echo "llama-server is not ready" >&2; exit 1; }
echo "llama-server ready on 127.0.0.1:$port" >&2
TOOL_LLM_URL="http://127.0.0.1:$port" "$@"
