#!/usr/bin/env bash
# A function-calling benchmark on BFCL's public data against the real model (llama.cpp's server,
# serve.sh): the first N cases (default 100) of `simple_python`, `multiple` and `parallel`, each as
# one hand-written Chat Completions request and through the agent loop, graded by BFCL's rules,
# timed per case. Prints a Markdown table (docs/performance.md); with BFCL_RECORD=FILE, writes
# every answer to FILE, one JSON object a line (bfcl/official.py grades them with BFCL's own
# checker); with BFCL_LOOP=answer, the loop is left to give its answer rather than stopped once its
# tools have run. About an hour and a half for 100 cases.
# Usage: bash tests/bench/bfcl.sh [N]   (nothing else should run on the machine meanwhile)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(bash tests/bench/bfcl/fetch.sh)
BFCL_DATA=$root/bfcl_eval/data BFCL_CASES=${1:-100} bash tests/llm/serve.sh \
    cargo test --release -q -p tool-tests --test real_model -- --ignored --nocapture bfcl_bare_request_against_the_loop
