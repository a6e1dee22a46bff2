#!/usr/bin/env bash
# Runs the whole suite (`cargo test --workspace`, what CI runs) RUNS times while another
# build keeps a core busy beside it, and counts the runs that pass: a suite that cannot
# flake passes every one. The load is release builds of the workspace, from clean each time,
# in a target directory of their own, for as long as the runs last.
#
#   bash tests/flake-check.sh            # 10 runs
#   RUNS=3 bash tests/flake-check.sh
#
# Not part of CI (it takes about half an hour on two cores).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-10}
logs=target/flake-check
mkdir -p "$logs"
cargo test --workspace --no-run -q 2>/dev/null
(
    while true; do
        CARGO_TARGET_DIR=target/flake-check/load cargo build --release --workspace -q >/dev/null 2>&1 || true
        rm -rf target/flake-check/load
    done
) &
load=$!
trap 'kill $load 2>/dev/null; pkill -P $load 2>/dev/null || true' EXIT
passed=0
for run in $(seq 1 "$runs"); do
    if cargo test --workspace -q >"$logs/run-$run.log" 2>&1; then
        passed=$((passed + 1))
        echo "run $run: passed"
    else
        echo "run $run: FAILED (see $logs/run-$run.log)"
    fi
done
echo "$passed of $runs runs passed beside a parallel build"
[ "$passed" = "$runs" ]
