#!/usr/bin/env bash
# This crate's A2A server (examples/a2a_agent.rs) against peers nobody here wrote:
# - the official Python client (a2a-sdk 1.3): tests/a2a/client.py over JSON-RPC in protocol
#   1.0 and in 0.3 (the SDK's compatibility transport), and over HTTP+JSON; every check must
#   pass;
# - the A2A TCK (../shared/a2a-tck, its Python dependencies from PyPI in a cached virtual
#   environment), category "mandatory": every test must pass but those listed, each with its
#   reason, in tests/a2a/tck-expected-failures.txt, and a listed test that passes is reported.
# The agent listens on a free port of 127.0.0.1 and is stopped at the end.
# Usage: bash tests/a2a/serve.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
. tests/port.sh
cache=${TOOL_A2A_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tool-core-a2a}
tck_source=${TOOL_A2A_TCK:-$root/../shared/a2a-tck}
pip_install() { # pip_install VENV PACKAGES...: retried, as downloads fail now and then
    local venv=$1
    shift
    for attempt in 1 2 3; do
        "$venv/bin/pip" install -q --disable-pip-version-check "$@" && return 0
        echo "pip install failed (try $attempt of 3)" >&2
        sleep 5
    done
    return 1
}
venv=$cache/venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import a2a, uvicorn' 2>/dev/null; then
    rm -rf "$venv" && python3 -m venv "$venv"
    pip_install "$venv" "a2a-sdk[http-server]==1.3.0" "uvicorn>=0.30"
fi
tck_venv=$cache/tck-venv
if [ ! -x "$tck_venv/bin/python" ] || ! "$tck_venv/bin/python" -c 'import pytest, httpx, grpc, OpenSSL, aiohttp, deepdiff' 2>/dev/null; then
    rm -rf "$tck_venv" && python3 -m venv "$tck_venv"
    pip_install "$tck_venv" pytest pytest-asyncio pytest-json-report httpx requests responses \
        types-requests deepdiff jsonschema packaging PyYAML python-dotenv grpcio grpcio-status \
        proto-plus protobuf googleapis-common-protos pyOpenSSL aiohttp pytest-html
fi
cargo build -q -p tool-examples --bin a2a_agent
port=$(free_port)
work=$(mktemp -d)
# Its card names the URL clients reach it at: localhost (the TCK reads a loopback address in a
# card as leaked internal information).
target/debug/a2a_agent "$port" "http://localhost:$port/" > "$work/agent.log" 2>&1 &
agent=$!
trap 'kill $agent 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
url="http://127.0.0.1:$port"
for _ in $(seq 1 100); do
    curl -fs "$url/.well-known/agent-card.json" >/dev/null 2>&1 && break
    sleep 0.1
done

echo "== the official Python client against this server: JSON-RPC 1.0 and 0.3, HTTP+JSON"
timeout 120 "$venv/bin/python" tests/a2a/client.py "$url" 1.0
timeout 120 "$venv/bin/python" tests/a2a/client.py "$url" 0.3
timeout 120 "$venv/bin/python" tests/a2a/client.py "$url" rest

echo "== the A2A TCK, mandatory"
# A copy: the TCK writes its reports beside itself.
cp -r "$tck_source" "$work/tck"
status=0
(cd "$work/tck" && timeout 900 "$tck_venv/bin/python" run_tck.py --sut-url "http://localhost:$port" --category mandatory) > "$work/tck.out" 2>&1 || status=$?
grep -E '^[0-9]+ (passed|failed)|^=+ .*(passed|failed)' "$work/tck.out" | tail -1
{ grep -E '^FAILED ' "$work/tck.out" || true; } | sed 's/^FAILED \([^ ]*\).*/\1/' | sort > "$work/failed"
{ grep -vE '^(#|$)' tests/a2a/tck-expected-failures.txt || true; } | sort > "$work/expected"
unexpected=$(comm -23 "$work/failed" "$work/expected")
fixed=$(comm -13 "$work/failed" "$work/expected")
if [ -n "$fixed" ]; then
    echo "now passing, remove from tests/a2a/tck-expected-failures.txt:"
    echo "$fixed"
fi
if [ -n "$unexpected" ] || { [ "$status" != 0 ] && [ ! -s "$work/failed" ]; }; then
    echo "unexpected TCK failures (exit $status):"
    echo "$unexpected"
    tail -60 "$work/tck.out"
    exit 1
fi
echo "TCK mandatory: every failure is an expected one ($(wc -l < "$work/failed") listed)"
