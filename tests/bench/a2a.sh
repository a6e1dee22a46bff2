#!/usr/bin/env bash
# A blocking SendMessage round trip, clients x servers, in one run on this machine: this
# crate's client (tests/benches/a2a.rs, release) and the official Python client
# (tests/a2a/bench_client.py, a2a-sdk 1.3), each against the official Python server
# (tests/a2a/peer.py) and this crate's server (examples/a2a_agent.rs, release). Every call
# asks for a direct message reply ("hello" / "/hello"), so only the protocol path is timed.
#
#   bash tests/bench/a2a.sh        # CALLS=200 timed calls per pair by default
#
# Not part of CI. Needs the virtual environment tests/a2a/run.sh makes.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/port.sh
calls=${CALLS:-200}
venv=${TOOL_A2A_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tool-core-a2a}/venv
[ -x "$venv/bin/python" ] || { echo "run bash tests/a2a/run.sh once first (it makes $venv)" >&2; exit 1; }
cargo build -q --release -p tool-examples --bin a2a_agent
cargo bench -q -p tool-tests --bench a2a --no-run
python_port=$(free_port)
"$venv/bin/python" tests/a2a/peer.py "$python_port" > /dev/null 2>&1 &
python_server=$!
ours_port=$(free_port)
target/release/a2a_agent "$ours_port" > /dev/null 2>&1 &
ours=$!
trap 'kill $python_server $ours 2>/dev/null; wait 2>/dev/null' EXIT
for port in "$python_port" "$ours_port"; do
    for _ in $(seq 1 100); do
        curl -fs "http://127.0.0.1:$port/.well-known/agent-card.json" >/dev/null 2>&1 && break
        sleep 0.1
    done
done
python_url=http://127.0.0.1:$python_port
ours_url=http://127.0.0.1:$ours_port
echo "python server: $python_url; this crate's server: $ours_url; $calls calls each"
TOOL_A2A_CALLS=$calls TOOL_A2A_BENCH="$python_url/.well-known/agent-card.json|hello $ours_url/.well-known/agent-card.json|/hello" \
    cargo bench -q -p tool-tests --bench a2a
"$venv/bin/python" tests/a2a/bench_client.py "$python_url" hello "$calls"
"$venv/bin/python" tests/a2a/bench_client.py "$ours_url" /hello "$calls"
