# Sourced by the scripts that drive a server with the official MCP Python client (`mcp` 2.3.0
# from PyPI): a virtual environment cached in ~/.cache/tool-core-mcp-python (or
# $TOOL_MCP_PYTHON_CACHE), made once, retrying a failed download; defines `venv`.
. "$(dirname "${BASH_SOURCE[0]}")/retry.sh"
cache=${TOOL_MCP_PYTHON_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tool-core-mcp-python}
venv=$cache/venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import mcp' 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    retry "$venv/bin/pip" install -q --disable-pip-version-check "mcp==2.3.0"
fi
