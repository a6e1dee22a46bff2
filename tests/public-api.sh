#!/usr/bin/env bash
# The public API of tool-core (every feature on), one item a line, against the snapshot in
# tests/public-api/tool-core.txt: a change to the API shows in the diff that makes it, and CI
# fails until the snapshot is updated with it. Uses cargo-public-api 0.52.0 (installed into
# target/tools on first use, retried) on the nightly toolchain's rustdoc JSON.
#
#   bash tests/public-api.sh            # check
#   UPDATE=1 bash tests/public-api.sh   # rewrite the snapshot, then review its diff
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tools=$root/target/tools
version=0.52.0

. "$root/tests/retry.sh"

if ! "$tools/bin/cargo-public-api" --version 2>/dev/null | grep -q "$version"; then
    retry cargo +stable install cargo-public-api --version "=$version" --locked --root "$tools" --quiet
fi

snapshot=$root/tests/public-api/tool-core.txt
actual=$(mktemp)
trap 'rm -f "$actual"' EXIT
# Its own target directory: rustdoc JSON is built by nightly, whose artifacts stable cannot reuse.
CARGO_TARGET_DIR=$root/target/public-api PATH=$tools/bin:$PATH \
    cargo +nightly public-api --package tool-core --all-features --simplified --simplified --color never >"$actual"

if [ "${UPDATE:-}" = 1 ]; then
    cp "$actual" "$snapshot"
    echo "wrote $snapshot ($(wc -l <"$snapshot") items)"
elif ! diff -u "$snapshot" "$actual"; then
    echo "the public API differs from tests/public-api/tool-core.txt (above);" >&2
    echo "if the change is meant, run UPDATE=1 bash tests/public-api.sh and commit the snapshot" >&2
    exit 1
else
    echo "public API matches tests/public-api/tool-core.txt ($(wc -l <"$snapshot") items)"
fi
