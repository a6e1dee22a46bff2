#!/usr/bin/env bash
# Instructions per dispatch, counted by callgrind (deterministic, unlike time), for the
# hand-written baseline, tool_core's decode + call, and tool_core's registry.call of the same
# tool in its three forms: one argument struct, plain parameters, a `#[tools]` method; and
# `invalid`, the error path (a refused call, validated in full and answered with violations);
# `runtime`/`runtime-invalid`, the same schema held at run time (RuntimeSchema); `resolve3`, one
# resolution of a run's tools from three sources.
# Usage: bash tests/bench/instructions.sh   (needs valgrind: apt-get install valgrind)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p tool-tests --bin dispatch_instructions
bin=target/release/dispatch_instructions
count() { # instructions of `$bin $1 $2`
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
n=20000
declare -A per_call
for variant in hand decode registry plain method invalid runtime runtime-invalid resolve3; do
    base=$(count "$variant" 0)
    total=$(count "$variant" "$n")
    per_call[$variant]=$(( (total - base) / n ))
    echo "$variant: ${per_call[$variant]} instructions per call"
done
for variant in decode registry plain method; do
    awk -v a="${per_call[$variant]}" -v b="${per_call[hand]}" -v v="$variant" \
        'BEGIN { printf "%s / hand-written = %.3f\n", v, a / b }'
done
for variant in plain method; do
    awk -v a="${per_call[$variant]}" -v b="${per_call[registry]}" -v v="$variant" \
        'BEGIN { printf "%s / struct form = %.3f\n", v, a / b }'
done
awk -v a="${per_call[runtime]}" -v b="${per_call[decode]}" \
    'BEGIN { printf "run-time schema (parse + validate) / decode (parse + validate + decode) = %.3f\n", a / b }'
awk -v a="${per_call[runtime-invalid]}" -v b="${per_call[invalid]}" \
    'BEGIN { printf "run-time schema, refused / compile-time, refused = %.3f\n", a / b }'
