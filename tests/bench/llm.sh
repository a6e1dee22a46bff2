#!/usr/bin/env bash
# The loop's own share of a run against a real model (llama.cpp's server, serve.sh): an agent
# run with one call against the same two requests sent bare, per API, three runs each,
# interleaved; prompt caching off on both sides. Prints a Markdown table (docs/performance.md).
# Usage: bash tests/bench/llm.sh   (nothing else should run on the machine meanwhile)
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tests/llm/serve.sh cargo test --release -q -p tool-tests --test real_model -- --ignored --nocapture \
    the_loops_share_of_a_run
