#!/usr/bin/env bash
# The scale-out tests (tests/tests/scale): three replicas of examples/replica.rs behind a
# round-robin balancer, tasks and sessions in a real Redis; a replica killed under 1,000
# calls, Redis restarted mid-task. Installs redis-server from Debian's packages when it is
# missing (retrying failed downloads); each test starts its own Redis and replicas on free
# 127.0.0.1 ports and stops them at the end.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/redis.sh"
# The official MCP Python SDK, for its 2026-07-28 client.
py_mcp=$root/target/py-mcp
if [ ! -e "$py_mcp/mcp/__init__.py" ]; then
    retry python3 -m pip install --quiet --disable-pip-version-check --target "$py_mcp" 'mcp==2.3.0'
fi
cd "$root"
cargo build --quiet -p tool-examples --bin replica
PY_MCP="$py_mcp" REPLICA_BIN="$root/target/debug/replica" REDIS_SERVER="$redis_server" \
    cargo test --quiet -p tool-tests --test scale -- --ignored --skip throughput --skip list_tasks_from_the_listing --test-threads=1 --nocapture
