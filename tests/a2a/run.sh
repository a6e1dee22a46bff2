#!/usr/bin/env bash
# The A2A client against the official Python SDK (a2a-sdk 1.3, from PyPI, in a virtual
# environment cached in ~/.cache/tool-core-a2a): tests/a2a/peer.py served in protocol versions
# 1.0 and 0.3 on free ports of 127.0.0.1, the ignored tests of tests/tests/a2a/peer.rs run
# against them, both servers stopped at the end.
# Usage: bash tests/a2a/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/port.sh
cache=${TOOL_A2A_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tool-core-a2a}
venv=$cache/venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import a2a, uvicorn' 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    for attempt in 1 2 3; do
        "$venv/bin/pip" install -q --disable-pip-version-check "a2a-sdk[http-server]==1.3.0" "uvicorn>=0.30" && break
        echo "pip install failed (try $attempt of 3)" >&2
        [ "$attempt" = 3 ] && exit 1
        sleep 5
    done
fi
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null' EXIT
url=
start() { # start VERSION: a peer speaking VERSION; its URL in $url once it serves its card
    local port
    port=$(free_port)
    "$venv/bin/python" tests/a2a/peer.py "$port" "$1" &
    pids+=($!)
    url="http://127.0.0.1:$port"
    for _ in $(seq 1 100); do
        curl -fs "$url/.well-known/agent-card.json" >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    echo "the $1 peer did not start" >&2
    exit 1
}
start 1.0
v1=$url
start 0.3
v03=$url
TOOL_A2A_V1=$v1 TOOL_A2A_V03=$v03 cargo test -p tool-tests --test a2a -- --include-ignored
