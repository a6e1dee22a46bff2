#!/usr/bin/env bash
# Runs every fuzz target for a fixed time (default 600 s each) with cargo-fuzz on nightly.
# Usage: bash tests/fuzz/run.sh [seconds-per-target]
# Needs: rustup toolchain nightly (installed here) and `cargo install cargo-fuzz`.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
for target in $(cargo +nightly fuzz list --fuzz-dir .); do
    mkdir -p "corpus/$target"
    cargo +nightly fuzz run --fuzz-dir . "$target" "corpus/$target" "seeds/$target" -- \
        -max_total_time="$seconds" -rss_limit_mb=4096 -print_final_stats=1
done
