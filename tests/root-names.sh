#!/usr/bin/env bash
# The names at tool-core's root (every feature on), read from the public-API snapshot that
# tests/public-api.sh keeps: one a line, then their count. Modules are not counted.
#   bash tests/root-names.sh
set -euo pipefail
cd "$(dirname "$0")/.."
sed -E 's/^(#\[[^]]*\] )+//' tests/public-api/tool-core.txt |
    grep -E '^pub (struct|enum|trait|fn|type|macro|use|const|static) tool_core::[A-Za-z_][A-Za-z0-9_]*' |
    grep -vE '^pub [a-z]+ tool_core::[A-Za-z_][A-Za-z0-9_]*(<[^>]*>)?::' |
    sed -E 's/^pub [a-z]+ tool_core::([A-Za-z_][A-Za-z0-9_]*).*/\1/' | sort -u | tee /dev/stderr | wc -l
