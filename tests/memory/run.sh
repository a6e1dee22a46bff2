#!/usr/bin/env bash
# The knowledge-graph memory example (examples/memory_server.rs) driven over stdio by the
# official MCP Python client (`mcp` 2.3.0 from PyPI, in a virtual environment cached in
# ~/.cache/tool-core-mcp-python) through the reference server's call sequence:
# tests/memory/drive.py checks every answer, the resource, its notifications and the file.
# Usage: bash tests/memory/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/mcp-python.sh
cargo build --quiet -p tool-examples --bin memory_server
timeout 300 "$venv/bin/python" tests/memory/drive.py "$PWD/target/debug/memory_server"
