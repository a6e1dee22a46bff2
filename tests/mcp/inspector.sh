#!/usr/bin/env bash
# Runs the tests that drive the official MCP Inspector's CLI (@modelcontextprotocol/inspector
# 2.12) against our server, installed by tests/mcp/inspector-install.sh: the ignored tests
# whose names contain `inspector` (they start their servers on free ports on 127.0.0.1 and
# stop them), then the `--strict` portability report on the example server.
#
#   bash tests/mcp/inspector.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
. "$root/tests/mcp/inspector-install.sh"

export MCP_INSPECTOR="PATH=$node_home/bin:\$PATH $node $inspector_app/node_modules/.bin/mcp-inspector"
cargo test --quiet -p tool-tests --test mcp -- --ignored inspector

# Every example tool is portable by the Inspector's `--strict` report: it prints nothing for
# a clean list, and a warning or an error for each problem.
cargo build --quiet -p tool-examples --bin mcp_server
report=$(inspector --strict --method tools/list "$root/target/debug/mcp_server" 2>&1 >/dev/null)
if [ -n "$report" ]; then
    echo "$report"
    echo "the Inspector's --strict report on the example server is not clean" >&2
    exit 1
fi
echo "the Inspector's --strict report on the example server is clean"
