#!/usr/bin/env bash
# Instructions per `registry.call` in a user's binary holding one struct-form tool
# (tests/bench/one-tool), built against tool-core at a given revision and at the work tree,
# with the hand-written baseline counted in each binary. Unlike instructions.sh, whose binary
# holds every form of the tool (which changes how much of the shared code is inlined), this
# compares what one user's code costs on two versions of the library.
# Usage: bash tests/bench/instructions-vs.sh [REV]   (default 250803e; needs valgrind)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
rev=${1:-250803e}
work=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$work/old" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add -q --detach "$work/old" "$rev"

build() { # $1 label, $2 tool-core path: prints the binary's path
    local dir=$work/crate-$1
    mkdir -p "$dir"
    cp -r "$root/tests/bench/one-tool/src" "$dir/"
    cp "$root/Cargo.lock" "$dir/"
    cat >"$dir/Cargo.toml" <<TOML
[package]
name = "one-tool"
version = "0.0.0"
edition = "2024"
publish = false
[dependencies]
tool-core = { path = "$2" }
serde = { version = "1", features = ["derive"] }
serde_json = "1"
[workspace]
TOML
    CARGO_TARGET_DIR=$root/target/one-tool-$1 cargo build --release -q --manifest-path "$dir/Cargo.toml" >&2
    echo "$root/target/one-tool-$1/release/one-tool"
}
count() { # instructions of `$1 $2 $3`
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$2" "$3" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
n=20000
for side in old new; do
    path=$root/tool-core
    [ "$side" = old ] && path=$work/old/tool-core
    bin=$(build "$side" "$path")
    for variant in hand registry; do
        base=$(count "$bin" "$variant" 0)
        total=$(count "$bin" "$variant" "$n")
        echo "$side ($([ "$side" = old ] && echo "$rev" || echo "work tree")) $variant: $(( (total - base) / n )) instructions per call"
    done
done
