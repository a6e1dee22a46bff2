# Sourced by the scripts that drive the official MCP Inspector's CLI: installs Node 24
# (tests/node.sh) and @modelcontextprotocol/inspector 2.12 from npm into target/mcp-inspector
# (retrying failed downloads), and defines `inspector ARGS..` to run its CLI. Expects `root`.
. "$root/tests/node.sh"
inspector_work=$root/target/mcp-inspector
mkdir -p "$inspector_work"
inspector_app=$inspector_work/app
if [ ! -e "$inspector_app/node_modules/.bin/mcp-inspector" ]; then
    mkdir -p "$inspector_app"
    [ -f "$inspector_app/package.json" ] || echo '{"private": true}' > "$inspector_app/package.json"
    (cd "$inspector_app" && retry npm install --no-audit --no-fund --save-exact @modelcontextprotocol/inspector@2.12)
fi
inspector() { PATH="$node_home/bin:$PATH" "$node" "$inspector_app/node_modules/.bin/mcp-inspector" --cli "$@"; }
