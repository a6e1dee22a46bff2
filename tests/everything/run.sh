#!/usr/bin/env bash
# The reference MCP server `everything` (npm @modelcontextprotocol/server-everything 2026.8.31)
# against its port, examples/everything, through the official MCP Python client (`mcp` 2.3.0
# from PyPI): tests/everything/compare.py sends both one sequence of requests over stdio (ours
# also over streamable HTTP on 127.0.0.1), normalises ids and times, and diffs; every
# difference left is in tests/everything/expected.txt with the spec's verdict. Installs Node
# 24 (PyPI) and the reference (npm) into target/everything, and `mcp` into a cached virtual
# environment, retrying failed downloads.
# Usage: bash tests/everything/run.sh (RELEASE=1 times the port built with --release)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
. tests/node.sh
. tests/port.sh
work=$root/target/everything
reference=$work/node_modules/@modelcontextprotocol/server-everything
if [ ! -f "$reference/dist/index.js" ]; then
    mkdir -p "$work"
    [ -f "$work/package.json" ] || echo '{"private": true}' > "$work/package.json"
    (cd "$work" && retry npm install --no-audit --no-fund --save-exact @modelcontextprotocol/server-everything@2026.8.31)
fi
. tests/mcp-python.sh
if [ -n "${RELEASE:-}" ]; then
    cargo build --quiet --release -p tool-examples --bin everything
    ours=$root/target/release/everything
else
    cargo build --quiet -p tool-examples --bin everything
    ours=$root/target/debug/everything
fi
# Both serve the reference's documents, so their resources and instructions compare.
export EVERYTHING_DOCS=$reference/dist/docs
port=$(free_port)
"$ours" --http "127.0.0.1:$port" > "$work/http.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true' EXIT
wait_port "$port"
timeout 600 "$venv/bin/python" tests/everything/compare.py "$node" "$reference/dist/index.js" stdio -- "$ours" \
    tests/everything/expected.txt --http "http://127.0.0.1:$port/mcp"
