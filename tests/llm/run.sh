#!/usr/bin/env bash
# The agent against a real model: llama.cpp's llama-server with Qwen2.5-Coder-1.5B-Instruct
# on 127.0.0.1 (serve.sh), through Chat Completions, Responses and Anthropic Messages. The
# tests (tests/tests/real_model) assert what the crate guarantees, never the model's answer;
# they are `#[ignore]`d in the ordinary suite and run here.
#
# Usage: bash tests/llm/run.sh [test filter]   (the first run on a machine builds the server:
# about 10 minutes; later runs start it in a few seconds)
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tests/llm/serve.sh cargo test -p tool-tests --test real_model -- --ignored --test-threads 1 \
    --skip the_loops_share_of_a_run --skip a_round_with_and_without_early_calls \
    --skip bfcl_bare_request_against_the_loop "$@"
