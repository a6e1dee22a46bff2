#!/usr/bin/env bash
# The compiler's front end on N = 50 tools, counted in instructions (callgrind), which do not
# move with the machine's load the way build times do: `cargo check` of the benchmark crates
# of `compile-time.sh` (our macros, against serde's derive and a hand-written `match`, and the
# same tools written with plain parameters, and as methods of `#[tools]` blocks), the
# dependencies checked beforehand so that only the crate itself is counted. This is where
# the two differ (their code generation is alike: our expansion lowers to less LLVM IR).
#
#   bash tests/bench/front-end.sh     # needs valgrind (apt-get install valgrind); ~4 minutes
#
# Not part of CI.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work="$root/target/compile-bench"
ONLY_WRITE=1 bash "$root/tests/bench/compile-time.sh" # the crates, as this revision writes them
# shellcheck source=tests/bench/count-check.sh
source "$root/tests/bench/count-check.sh"
serde=$(count serde_50)
tools=$(count tools_50)
plain=$(count plain_50)
methods=$(count methods_50)
two=$(count two_50)
echo "cargo check, N = 50, instructions: serde-only $serde, tool-core $tools, plain parameters $plain, methods $methods, structs beside serde's derive $two"
awk -v t="$tools" -v s="$serde" 'BEGIN { printf "ratio %.3f; per tool beyond serde-only: %.1f M\n", t / s, (t - s) / 50 / 1e6 }'
awk -v t="$tools" -v p="$plain" -v s="$serde" \
    'BEGIN { printf "plain parameters: per tool beyond serde-only %.1f M, %.3f of the struct form\n", (p - s) / 50 / 1e6, (p - s) / (t - s) }'
awk -v m="$methods" -v p="$plain" -v s="$serde" \
    'BEGIN { printf "methods (each in a #[tools] block): per tool beyond serde-only %.1f M, %.3f of plain parameters\n", (m - s) / 50 / 1e6, (m - s) / (p - s) }'
awk -v t="$tools" -v w="$two" -v s="$serde" \
    'BEGIN { printf "structs beside serde'"'"'s derive (#[tool_args(serde)]): per tool beyond serde-only %.1f M; ToolArgs alone %.3f of it\n", (w - s) / 50 / 1e6, (t - s) / (w - s) }'
