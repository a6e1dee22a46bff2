#!/usr/bin/env bash
# The cost of a journaled step of a durable run (tests/tests/durable, per_step_cost): the order
# desk (examples/durable.rs, release build) on a real Restate server from npm, 30 runs of five
# steps against 30 invocations of a handler that journals nothing, in turn. Not in CI.
#
#   bash tests/bench/durable.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/restate.sh"
cd "$root"
cargo build --quiet --release -p tool-examples --bin durable
RESTATE_SERVER="$restate_server" DURABLE_BIN="$root/target/release/durable" \
    cargo test --quiet -p tool-tests --test durable -- --ignored per_step --nocapture
