"""Drives examples/memory_server.rs with the official MCP Python client (`mcp` on PyPI) over
stdio, through the call sequence of the reference server `memory`
(@modelcontextprotocol/server-memory): every answer, the resource and its update
notifications, and the JSONL file the calls leave, checked against what the reference
answers and writes. Usage: python drive.py SERVER_BINARY (tests/memory/run.sh)."""

import asyncio
import json
import os
import sys
import tempfile
import warnings

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

SEED = "\n".join([
    '{"type":"entity","name":"Old","entityType":"legacy","observations":["seeded"],"extra":1}',
    "",
    '{"type":"note","text":"not part of the graph"}',
    '{"type":"relation","from":"Old","to":"Old","relationType":"self"}',
])
TOOLS = ["create_entities", "create_relations", "add_observations", "delete_entities", "delete_observations",
         "delete_relations", "read_graph", "search_nodes", "open_nodes"]
URI = "memory://knowledge-graph"
checks = 0
# The Python SDK warns that resources/subscribe is gone from 2026-07-28; the sessions it opens
# here (2025-11-25) have it, and the reference serves it.
warnings.filterwarnings("ignore", message="resources/(un)?subscribe is removed")


def pretty(value):
    # JSON.stringify(value, null, 2), as the reference writes its text
    return json.dumps(value, indent=2, ensure_ascii=False)


def expect(what, got, wanted):
    global checks
    checks += 1
    if got != wanted:
        sys.exit(f"FAIL {what}:\n  got    {got!r}\n  wanted {wanted!r}")


async def main(binary):
    directory = tempfile.mkdtemp()
    path = os.path.join(directory, "memory.jsonl")
    with open(path, "w", encoding="utf-8") as file:
        file.write(SEED)
    updates = []

    async def on_message(message):
        root = getattr(message, "root", message)
        if getattr(root, "method", None) == "notifications/resources/updated":
            updates.append(root.params.uri)

    params = StdioServerParameters(command=binary, env={"MEMORY_FILE_PATH": path})
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, message_handler=on_message) as session:
            init = await session.initialize()
            expect("server name", init.server_info.name, "memory-server")
            expect("capabilities", bool(init.capabilities.resources and init.capabilities.resources.subscribe), True)
            tools = (await session.list_tools()).tools
            expect("tools in the reference's order", [tool.name for tool in tools], TOOLS)

            async def call(name, arguments):
                result = await session.call_tool(name, arguments)
                text = "".join(block.text for block in result.content if block.type == "text")
                return text, bool(result.is_error), result.structured_content

            async def ok(name, arguments, structured, text=None):
                got = await call(name, arguments)
                expect(f"{name} {arguments}", got, (pretty(structured) if text is None else text, False, structured))

            old = {"name": "Old", "entityType": "legacy", "observations": ["seeded"]}
            self_relation = {"from": "Old", "to": "Old", "relationType": "self"}
            await ok("read_graph", {}, {"entities": [old], "relations": [self_relation]})

            alice = {"name": "Alice", "entityType": "person", "observations": ["likes tea", "works at Acme"]}
            acme = {"name": "Acme", "entityType": "company", "observations": []}
            zoe = {"name": "Zoë", "entityType": "Person", "observations": ["ÉCOLE teacher"]}
            created = [alice, acme, zoe]
            await ok("create_entities", {"entities": created}, {"entities": created}, pretty(created))
            carol = {"name": "Carol", "entityType": "person", "observations": ["new hire"]}
            await ok("create_entities", {"entities": [alice, carol]}, {"entities": [carol]}, pretty([carol]))

            works = {"from": "Alice", "to": "Acme", "relationType": "works_at"}
            knows = {"from": "Carol", "to": "Alice", "relationType": "knows"}
            await ok("create_relations", {"relations": [works, knows]}, {"relations": [works, knows]}, pretty([works, knows]))
            await ok("create_relations", {"relations": [works]}, {"relations": []}, pretty([]))

            added = [{"entityName": "Alice", "addedObservations": ["speaks French"]}]
            await ok("add_observations", {"observations": [{"entityName": "Alice", "contents": ["speaks French", "likes tea"]}]},
                     {"results": added}, pretty(added))
            missing = await call("add_observations", {"observations": [{"entityName": "Nobody", "contents": ["x"]}]})
            expect("an unknown entity", missing[:2], ("Entity with name Nobody not found", True))

            done = "Observations deleted successfully"
            await ok("delete_observations", {"deletions": [{"entityName": "Alice", "observations": ["likes tea"]}]},
                     {"success": True, "message": done}, done)
            alice["observations"] = ["works at Acme", "speaks French"]

            await ok("search_nodes", {"query": "ACME"}, {"entities": [alice, acme], "relations": [works]})
            await ok("search_nodes", {"query": "école"}, {"entities": [zoe], "relations": []})
            await ok("open_nodes", {"names": ["Alice", "Nobody"]}, {"entities": [alice], "relations": []})
            await ok("open_nodes", {"names": []}, {"entities": [], "relations": []})

            done = "Relations deleted successfully"
            await ok("delete_relations", {"relations": [knows]}, {"success": True, "message": done}, done)
            done = "Entities deleted successfully"
            await ok("delete_entities", {"entityNames": ["Carol", "Nobody"]}, {"success": True, "message": done}, done)

            # What the schema refuses, worded as the reference's SDK words zod's issues.
            zod = "MCP error -32602: Input validation error: Invalid arguments for tool {}: Invalid input: {}"
            for name, arguments, issue in [
                ("create_entities", {}, "expected array, received undefined at entities"),
                ("create_entities", {"entities": [{"name": "X", "entityType": "t"}]},
                 "expected array, received undefined at entities[0].observations"),
                ("create_entities", {"entities": "not a list"}, "expected array, received string at entities"),
                ("search_nodes", {"query": 42}, "expected string, received number at query"),
                ("search_nodes", {"query": None}, "expected string, received null at query"),
                ("delete_entities", {"entityNames": "Alice"}, "expected array, received string at entityNames"),
                ("create_relations", {"relations": [{"from": "A", "to": "B"}]},
                 "expected string, received undefined at relations[0].relationType"),
                ("delete_observations", {"deletions": [{"entityName": "Alice"}]},
                 "expected array, received undefined at deletions[0].observations"),
                ("search_nodes", {"query": True}, "expected string, received boolean at query"),
                ("search_nodes", {"query": {}}, "expected string, received object at query"),
                ("search_nodes", {"query": []}, "expected string, received array at query"),
                ("search_nodes", {"query": 3.5}, "expected string, received number at query"),
                ("open_nodes", {"names": [None, "Alice"]}, "expected string, received null at names[0]"),
            ]:
                expect(f"{name} {arguments} refused", await call(name, arguments), (zod.format(name, issue), True, None))

            graph = {"entities": [old, alice, acme, zoe], "relations": [self_relation, works]}
            await ok("read_graph", {"unexpected": 1}, graph)
            expect("an unknown tool", await call("no_such_tool", {}),
                   ("MCP error -32602: Tool no_such_tool not found", True, None))

            resources = (await session.list_resources()).resources
            listed = [(str(r.uri), r.name, r.title, r.description, r.mime_type) for r in resources]
            expect("resources", listed, [(URI, "knowledge-graph", "Knowledge Graph",
                                          "The full knowledge graph with all entities and relations", "application/json")])
            contents = (await session.read_resource(URI)).contents
            expect("the resource", json.loads(contents[0].text), graph)

            expect("no update before subscribing", updates, [])
            await session.subscribe_resource(URI)
            bob = {"name": "Bob", "entityType": "person", "observations": []}
            await ok("create_entities", {"entities": [bob]}, {"entities": [bob]}, pretty([bob]))
            for _ in range(100):
                if updates:
                    break
                await asyncio.sleep(0.05)
            expect("one update after a write", updates, [URI])
            await session.unsubscribe_resource(URI)
            await ok("delete_entities", {"entityNames": ["Bob"]}, {"success": True, "message": done}, done)
            await session.send_ping()
            expect("no update after unsubscribing", updates, [URI])

    with open(path, encoding="utf-8") as file:
        written = file.read()
    line = lambda kind, item: json.dumps({"type": kind, **item}, separators=(",", ":"), ensure_ascii=False)
    wanted = "\n".join([line("entity", e) for e in graph["entities"]] + [line("relation", r) for r in graph["relations"]])
    expect("the JSONL file", written, wanted)
    print(f"memory server: {checks} checks passed against the reference's answers")


asyncio.run(main(sys.argv[1]))
