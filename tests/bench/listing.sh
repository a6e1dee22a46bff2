#!/usr/bin/env bash
# The first listing in a process of 200 tools with nested arguments (tests/benches/listing.rs),
# tool-core against schemars generating the same schemas at run time: each side run RUNS times
# (default 9), alternating, each in a fresh process of the bench binary; prints every figure
# and the medians. BEFORE=<dir> also runs the same bench built in another checkout (a
# worktree of an earlier revision with this bench file copied in) as a third side.
#
#   bash tests/bench/listing.sh
#
# Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${RUNS:-9}
binary() { # the bench binary built in checkout $1
    (cd "$1" && cargo bench -q -p tool-tests --bench listing --no-run --message-format=json 2>/dev/null) |
        sed -n 's|.*"executable":"\([^"]*/listing-[^"]*\)".*|\1|p' | tail -1
}
ours_bin=$(binary .)
before_bin=${BEFORE:+$(binary "$BEFORE")}
first() { "$1" "$2" | sed -n 's/.*: \([0-9.]*\) µs.*/\1/p'; }
ours=() theirs=() before=()
for _ in $(seq 1 "$runs"); do
    ours+=("$(first "$ours_bin" ours)")
    theirs+=("$(first "$ours_bin" schemars)")
    [ -n "$before_bin" ] && before+=("$(first "$before_bin" ours)")
done
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
echo "tool-core: ${ours[*]} µs"
echo "schemars:  ${theirs[*]} µs"
[ -n "$before_bin" ] && echo "before:    ${before[*]} µs"
awk -v o="$(median "${ours[@]}")" -v t="$(median "${theirs[@]}")" \
    'BEGIN { printf "first listing of 200 nested tools, median: tool-core %.0f µs, schemars %.0f µs (%.3fx)\n", o, t, o / t }'
if [ -n "$before_bin" ]; then
    awk -v o="$(median "${ours[@]}")" -v b="$(median "${before[@]}")" \
        'BEGIN { printf "before: %.0f µs; now %.3fx of it\n", b, o / b }'
fi
