"""The official Python client's blocking SendMessage round trip, for tests/bench/a2a.sh: 20
untimed calls, then CALLS timed ones, sequential.

Usage: python bench_client.py BASE-URL MESSAGE CALLS
"""
import asyncio
import sys
import time

from a2a.client import ClientConfig, create_client
from a2a.helpers import new_text_message
from a2a.types import Role, SendMessageRequest


async def main(url, text, calls):
    client = await create_client(url, client_config=ClientConfig(streaming=False))

    async def one():
        request = SendMessageRequest(message=new_text_message(text, role=Role.ROLE_USER))
        async for _ in client.send_message(request):
            pass

    for _ in range(20):
        await one()
    start = time.perf_counter()
    for _ in range(calls):
        await one()
    elapsed = time.perf_counter() - start
    print(f"python client -> {url}: {elapsed / calls * 1e3:.3f} ms per SendMessage")


asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
