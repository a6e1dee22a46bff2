#!/usr/bin/env bash
# Round time with and without early calls against a real model (llama.cpp's server,
# serve.sh): a turn with two or more calls of a tool that takes 2 s, five runs each way, interleaved,
# the calls run together and one at a time; each run stops after its first round. Prints medians in
# a Markdown table (docs/performance.md). Turns the model wrote with one call are left out, and a first
# run fills the prompt cache.
# Usage: bash tests/bench/early.sh   (nothing else should run on the machine meanwhile)
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tests/llm/serve.sh cargo test --release -q -p tool-tests --test real_model -- --ignored --nocapture \
    a_round_with_and_without_early_calls
