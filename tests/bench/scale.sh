#!/usr/bin/env bash
# Throughput of 1, 2 and 3 replicas of examples/replica.rs (release build) behind the scale
# tests' round-robin balancer, with tasks and sessions in Redis, driven by the official MCP
# Inspector's CLI (`--load`), with the CPU use of each run; then the cost of a Redis round
# trip. Installs redis-server (Debian), Node 24 and the Inspector (npm) when missing. Not part
# of CI.
#
#   bash tests/bench/scale.sh [requests] [concurrency]   (default 5000 and 50)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/mcp/inspector-install.sh"
. "$root/tests/redis.sh"
runner=$inspector_work/run.sh
cat > "$runner" <<SH
#!/bin/sh
PATH="$node_home/bin:\$PATH" exec "$node" "$inspector_app/node_modules/.bin/mcp-inspector" --cli "\$@"
SH
chmod +x "$runner"
cd "$root"
cargo build --quiet --release -p tool-examples --bin replica
LOAD_REQUESTS=${1:-5000} LOAD_CONCURRENCY=${2:-50} INSPECTOR="$runner" \
    REPLICA_BIN="$root/target/release/replica" REDIS_SERVER="$redis_server" \
    cargo test --quiet --release -p tool-tests --test scale -- --ignored --exact throughput_of_one_two_and_three_replicas --nocapture
