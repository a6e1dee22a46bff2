#!/usr/bin/env bash
# Round time with and without early calls against a real model (llama.cpp's server,
# serve.sh): a turn with two calls of a tool that takes 2 s, five runs each way, interleaved;
# the medians of the turn's stream and of the round (request to the last call's end). Prints
# a Markdown table (docs/performance.md). Turns the model wrote with one call are left out.
# Usage: bash tests/bench/early.sh   (nothing else should run on the machine meanwhile)
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tests/llm/serve.sh cargo test --release -q -p tool-tests --test real_model -- --ignored --nocapture \
    a_round_with_and_without_early_calls
