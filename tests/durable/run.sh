#!/usr/bin/env bash
# The durable-run tests (tests/tests/durable) against a real Restate server: installs
# @restatedev/restate-server from npm into target/restate when it is missing (retrying failed
# downloads); each test starts its own Restate and its own order desk (examples/durable.rs) on
# free 127.0.0.1 ports and stops them at the end.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/restate.sh"
cd "$root"
cargo build --quiet -p tool-examples --bin durable
RESTATE_SERVER="$restate_server" DURABLE_BIN="$root/target/debug/durable" \
    cargo test --quiet -p tool-tests --test durable -- --ignored --skip per_step --test-threads=1 --nocapture
