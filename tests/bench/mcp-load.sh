#!/usr/bin/env bash
# Throughput under load, measured by the official MCP Inspector's CLI (`--load`): tool-core's
# server and an rmcp `#[tool_router]` server with the same 200 tools (the servers of
# tests/bench/mcp.sh, release build), each on a free port on 127.0.0.1, driven in turn with
# the same calls; prints both summaries and the throughput ratio. Not part of CI.
#
#   bash tests/bench/mcp-load.sh [requests] [concurrency]   (default 5000 and 50)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
requests=${1:-5000}
concurrency=${2:-50}
. "$root/tests/mcp/inspector-install.sh"
MCP_BENCH_BUILD_ONLY=1 bash "$root/tests/bench/mcp.sh"
bench=$root/target/mcp-bench/target/release/mcp-bench
out=$root/target/mcp-bench/load
mkdir -p "$out"

for server in tool-core rmcp; do
    "$bench" serve "$server" > "$out/$server.url" &
    pid=$!
    for _ in $(seq 1 100); do [ -s "$out/$server.url" ] && break; sleep 0.1; done
    url=$(cat "$out/$server.url")
    inspector "$url" --method tools/call --tool-name tool_123 \
        --tool-arg name=bench count=7 flag=true 'tags=["a","b"]' \
        --load --load-concurrency "$concurrency" --load-requests "$requests" > "$out/$server.json"
    kill "$pid"; wait "$pid" 2>/dev/null || true
done
python3 - "$out" <<'PY'
import json, sys
runs = {name: json.load(open(f"{sys.argv[1]}/{name}.json")) for name in ("tool-core", "rmcp")}
for name, d in runs.items():
    lat = d["latencyMs"]
    print(f"{name}: {d['throughput']:.0f} calls/s; {d['ok']} ok, {d['errors']} errors, {d['toolErrors']} tool errors; "
          f"latency p50 {lat['p50']} ms, p99 {lat['p99']} ms")
print(f"throughput tool-core / rmcp = {runs['tool-core']['throughput'] / runs['rmcp']['throughput']:.2f}x")
PY
