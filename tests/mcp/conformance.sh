#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16) against
# the example server `mcp_conformance`: installs Node 24 from PyPI (the suite needs Node >= 22)
# and the suite from npm into target/mcp-conformance, starts the server on a free port on
# 127.0.0.1, runs every scenario, stops the server. Known failures, with their reasons, are
# in tests/mcp/expected-failures.yml; anything else failing, or an expected failure that now
# passes, fails the run.
#
#   bash tests/mcp/conformance.sh                  # every scenario (--suite all)
#   bash tests/mcp/conformance.sh tools-call-image # one scenario, verbose
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
work=$root/target/mcp-conformance
mkdir -p "$work"

. "$root/tests/node.sh"
. tests/port.sh

suite=$work/suite
if [ ! -x "$suite/node_modules/.bin/conformance" ]; then
    mkdir -p "$suite"
    [ -f "$suite/package.json" ] || echo '{"private": true}' > "$suite/package.json"
    (cd "$suite" && retry npm install --no-audit --no-fund --save-exact @modelcontextprotocol/conformance@0.1.16)
fi

cargo build --quiet -p tool-examples --bin mcp_conformance
port=$(free_port)
log=$work/server.log
"$root/target/debug/mcp_conformance" "127.0.0.1:$port" > "$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true' EXIT
wait_port "$port"

url=http://localhost:$port/mcp
run() { PATH="$node_home/bin:$PATH" "$node" "$suite/node_modules/.bin/conformance" server --url "$url" "$@"; }
if [ $# -gt 0 ]; then
    run --scenario "$1" --verbose
else
    run --suite all --expected-failures "$root/tests/mcp/expected-failures.yml" -o "$work/results"
fi
