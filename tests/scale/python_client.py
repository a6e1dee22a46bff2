"""The official MCP Python SDK's client (PyPI `mcp`) on protocol revision 2026-07-28: calls the
replicas' `approve` tool, answers its elicitation round, and prints the result. Run by the scale
tests through the balancer, so the round's retry lands on another replica."""

import asyncio
import sys

from mcp import Client, types


async def elicit(context, params):
    assert params.message == "Who approves the deploy?", params.message
    return types.ElicitResult(action="accept", content={"name": "Grace"})


async def main(url):
    async with Client(url, mode="2026-07-28", elicitation_callback=elicit) as client:
        result = await client.call_tool("approve", {})
        assert not result.is_error, result
        print(result.content[0].text)


asyncio.run(main(sys.argv[1]))
