"""The official MCP Python SDK's client (PyPI `mcp`), run by the scale tests through the
balancer.

- `python_client.py URL`: on protocol revision 2026-07-28, calls the replicas' `approve`
  tool, answers its elicitation round, and prints the result; the round's retry lands on
  another replica.
- `python_client.py URL legacy`: in a session (the `initialize` handshake), calls `add`
  six times and prints each answer, one per line; the calls land on several replicas,
  which answer them as `application/json`."""

import asyncio
import sys

from mcp import Client, types


async def elicit(context, params):
    assert params.message == "Who approves the deploy?", params.message
    return types.ElicitResult(action="accept", content={"name": "Grace"})


async def modern(url):
    async with Client(url, mode="2026-07-28", elicitation_callback=elicit) as client:
        result = await client.call_tool("approve", {})
        assert not result.is_error, result
        print(result.content[0].text)


async def legacy(url):
    async with Client(url, mode="legacy") as client:
        for i in range(6):
            result = await client.call_tool("add", {"a": i, "b": 1})
            assert not result.is_error, result
            print(result.content[0].text)


asyncio.run(legacy(sys.argv[1]) if sys.argv[2:] == ["legacy"] else modern(sys.argv[1]))
