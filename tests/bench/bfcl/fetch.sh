#!/usr/bin/env bash
# Fetches BFCL's data (Berkeley Function Calling Leaderboard v4, Apache-2.0) from the PyPI wheel
# `bfcl-eval`, checked against a pinned sha256, into a cache outside the clone
# ($TOOL_BFCL_CACHE, default ~/.cache/tool-core-bfcl), and prints the directory holding the
# wheel's `bfcl_eval` package (its data under `bfcl_eval/data`, its checker under
# `bfcl_eval/eval_checker`). A second run downloads nothing.
set -euo pipefail
version=2026.3.23
sha256=3bb6dfa5f0c68ad403c9ec50b00db2bb3b4cc9b38ab1ff33f48fe30d853d3a0a
cache=${TOOL_BFCL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tool-core-bfcl}
root=$cache/bfcl-eval-$version
if [ ! -f "$root/.complete" ]; then
    mkdir -p "$cache"
    wheel=$cache/bfcl_eval-$version-py3-none-any.whl
    for attempt in 1 2 3; do
        [ -f "$wheel" ] && break
        ${PYTHON:-python3} -m pip download --quiet --no-deps --only-binary=:all: --dest "$cache" "bfcl-eval==$version" >&2 && break
        echo "[bfcl] download try $attempt of 3 failed" >&2
        sleep 5
    done
    echo "$sha256  $wheel" | sha256sum -c --quiet - >&2 || { rm -f "$wheel"; echo "[bfcl] $wheel: wrong sha256" >&2; exit 1; }
    rm -rf "$root"
    ${PYTHON:-python3} -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$wheel" "$root"
    touch "$root/.complete"
fi
echo "$root"
