"""Drives the reference MCP server `everything` (npm @modelcontextprotocol/server-everything) and
this crate's port (examples/everything) with the official MCP Python client (`mcp` on PyPI)
through one sequence of requests: initialize, every list, every tool with good and bad
arguments and an unknown tool, every resource and template, every prompt with and without
arguments, completion, logging levels, subscriptions, roots, sampling, elicitation in both
modes, and the task. Each answer is normalised (ids, times, the environment) and the two are
diffed step by step; every step that differs must be listed, with the spec's verdict, in
tests/everything/expected.txt, and every step listed there must still differ.

Usage: python compare.py REFERENCE_CMD... -- OURS_CMD... [--http URL] (tests/everything/run.sh)
Writes the figures (answers equal, differing, impossible; start-up; tools/call medians) to stdout.
"""

import asyncio
import base64
import json
import os
import re
import statistics
import sys
import time
import warnings

import mcp_types as types
from mcp_types._v2025_11_25 import CreateTaskResult
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

warnings.filterwarnings("ignore")
IMAGE = "<image>"
ROOTS = [types.Root(uri="file:///work/project", name="project"), types.Root(uri="file:///tmp")]


class Client:
    """One server's session, with what the server sent besides answers."""

    def __init__(self):
        self.logs, self.updates, self.progress, self.asked = [], [], [], []
        self.roots = list(ROOTS[:1])

    async def sampling(self, context, params):
        self.asked.append(("sampling", params.model_dump(by_alias=True, mode="json", exclude_none=True)))
        return types.CreateMessageResult(role="assistant", model="test-model", stop_reason="endTurn",
                                         content=types.TextContent(type="text", text="Sampled answer"))

    async def elicitation(self, context, params):
        asked = params.model_dump(by_alias=True, mode="json", exclude_none=True)
        self.asked.append(("elicitation", asked))
        if asked.get("mode") == "url":
            return types.ElicitResult(action="accept")
        if "interpretation" in json.dumps(asked):
            return types.ElicitResult(action="accept", content={"interpretation": "snake"})
        return types.ElicitResult(action="accept", content={
            "name": "Ada Lovelace", "check": True, "email": "ada@example.com", "integer": 7, "number": 2.5,
            "untitledMultipleSelectEnum": ["Piano"], "titledSingleSelectEnum": "hero-2"})

    async def list_roots(self, context):
        return types.ListRootsResult(roots=self.roots)

    async def logging(self, params):
        self.logs.append(params.model_dump(by_alias=True, mode="json", exclude_none=True))

    async def message(self, message):
        root = getattr(message, "root", message)
        if getattr(root, "method", None) == "notifications/resources/updated":
            self.updates.append(root.params.uri)


async def request(session, method, params=None):
    """The raw answer to `method`, or its error as data; checked against the negotiated
    revision's schema by the client, as its typed calls are."""
    data = {"method": method, "params": params or {}}
    opts = {}
    session._stamp(data, opts)
    try:
        answer = await session._dispatcher.send_raw_request(method, data.get("params"), opts)
    except MCPError as error:
        return {"error": {"code": error.code, "message": error.message, "data": error.data}}
    try:
        if method == "tools/call" and "task" in (params or {}):
            # A task-augmented call is answered with a task (2025-11-25), which the client's
            # method table, keyed by method alone, reads as a CallToolResult.
            CreateTaskResult.model_validate(answer)
        else:
            types.methods.validate_server_result(method, session.protocol_version or "2025-11-25", answer)
    except KeyError:
        pass
    except Exception as error:  # the client refuses this answer
        return {"refused by the client": str(error)[:300], "answer": answer}
    return answer


def normalise(value):
    """What may differ between runs (or servers) without meaning anything: times, random ids,
    session ids, the process environment, image bytes, an `isError` of false (the schema's
    default); a text blob is compared decoded."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key == "blob" and isinstance(item, str):
                try:
                    item = "<blob> " + normalise(base64.b64decode(item).decode())
                except (ValueError, UnicodeDecodeError):
                    item = f"<blob of {len(item)} base64 characters>"
            elif key == "data" and value.get("type") == "image":
                item = IMAGE
            elif key in ("taskId", "elicitationId", "createdAt", "lastUpdatedAt"):
                item = f"<{key}>"
            elif key == "isError" and item is False:
                continue  # the schema's default, sent or not
            out[key] = normalise(item)
        return out
    if isinstance(value, list):
        return [normalise(item) for item in value]
    if isinstance(value, str):
        value = re.sub(r"\b\d{1,2}:\d{2}:\d{2}\s?[AP]M\b", "<time>", value)
        value = re.sub(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}|[0-9a-f]{32}", "<id>", value)
        value = re.sub(r"session (undefined|stdio|\S+)", "session <session>", value)
        value = re.sub(r" - SessionId \S+$", "", value)
        value = re.sub(r"from session <session>$", "", value)
        if value.startswith("{\n  \"") and "PATH" in value:
            value = "<environment>"
    return value


async def sequence(session, client, timings):
    """Every step, in order: name -> normalised answer."""
    steps = {}

    async def step(name, method, params=None):
        started = time.perf_counter()
        steps[name] = normalise(await request(session, method, params))
        if method == "tools/call":
            timings.append(time.perf_counter() - started)
        return steps[name]

    async def call(name, tool, arguments=None):
        return await step(name, "tools/call", {"name": tool, "arguments": arguments or {}})

    await step("tools/list", "tools/list")
    await step("prompts/list", "prompts/list")
    await step("resources/list", "resources/list")
    await step("resources/templates/list", "resources/templates/list")

    await call("echo", "echo", {"message": "hello"})
    await call("echo without message", "echo")
    await call("echo with a number", "echo", {"message": 5})
    for kind in ["error", "success", "debug"]:
        await call(f"get-annotated-message {kind}", "get-annotated-message", {"messageType": kind, "includeImage": kind == "success"})
    await call("get-annotated-message bad type", "get-annotated-message", {"messageType": "loud"})
    await call("get-env", "get-env")
    await call("get-resource-links", "get-resource-links")
    await call("get-resource-links 5", "get-resource-links", {"count": 5})
    await call("get-resource-links 11", "get-resource-links", {"count": 11})
    await call("get-resource-reference", "get-resource-reference")
    await call("get-resource-reference blob 4", "get-resource-reference", {"resourceType": "Blob", "resourceId": 4})
    await call("get-resource-reference id 0", "get-resource-reference", {"resourceId": 0})
    await call("get-resource-reference id 1.5", "get-resource-reference", {"resourceId": 1.5})
    for city in ["New York", "Chicago", "Los Angeles"]:
        await call(f"get-structured-content {city}", "get-structured-content", {"location": city})
    await call("get-structured-content Paris", "get-structured-content", {"location": "Paris"})
    await call("get-sum", "get-sum", {"a": 2, "b": 3.5})
    await call("get-sum missing b", "get-sum", {"a": 2})
    await call("get-sum text", "get-sum", {"a": "2", "b": 3})
    await call("get-tiny-image", "get-tiny-image")
    data = "data:text/plain;base64," + base64.b64encode(b"hello gzip").decode()
    await call("gzip-file-as-resource link", "gzip-file-as-resource", {"name": "hello.txt.gz", "data": data})
    await step("resources/list after gzip", "resources/list")
    await step("read the gzipped resource", "resources/read", {"uri": "demo://resource/session/hello.txt.gz"})
    await call("gzip-file-as-resource embedded", "gzip-file-as-resource", {"name": "hello.txt.gz", "data": data, "outputType": "resource"})
    await call("gzip-file-as-resource ftp", "gzip-file-as-resource", {"data": "ftp://example.com/file"})
    await call("gzip-file-as-resource not a URL", "gzip-file-as-resource", {"data": "nothing"})

    started = time.perf_counter()
    client.progress.clear()

    async def on_progress(progress, total, message):
        client.progress.append({"progress": progress, "total": total, "message": message})

    result = await session.call_tool("trigger-long-running-operation", {"duration": 0.3, "steps": 3}, progress_callback=on_progress)
    timings.append(time.perf_counter() - started)
    steps["trigger-long-running-operation"] = normalise(result.model_dump(by_alias=True, mode="json", exclude_none=True))
    steps["trigger-long-running-operation progress"] = client.progress[:]
    await call("trigger-long-running-operation bad steps", "trigger-long-running-operation", {"steps": "many"})
    await call("unknown tool", "no-such-tool")

    # Logging: every level, then the simulated logger's first message at `debug` and none at
    # `emergency` unless it drew that level.
    for level in ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]:
        await step(f"logging/setLevel {level}", "logging/setLevel", {"level": level})
    await step("logging/setLevel loud", "logging/setLevel", {"level": "loud"})
    await step("logging/setLevel debug again", "logging/setLevel", {"level": "debug"})
    client.logs.clear()
    await call("toggle-simulated-logging on", "toggle-simulated-logging")
    await asyncio.sleep(0.5)
    steps["simulated log message"] = [re.sub(r"^\w+[ -]level[ -]message", "<a level's message>", normalise(log.get("data", ""))) for log in client.logs[:1]]
    steps["simulated log levels valid"] = all(log["level"] in ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency") for log in client.logs)
    await call("toggle-simulated-logging off", "toggle-simulated-logging")

    # Subscriptions: the updates a subscribed session hears.
    uri = "demo://resource/dynamic/text/1"
    client.logs.clear()
    await step("resources/subscribe", "resources/subscribe", {"uri": uri})
    await asyncio.sleep(0.3)
    steps["subscribe acknowledged in the log"] = [normalise(log.get("data")) for log in client.logs]
    client.updates.clear()
    await call("toggle-subscriber-updates on", "toggle-subscriber-updates")
    await asyncio.sleep(0.5)
    steps["resource updates heard"] = sorted(set(client.updates))
    await call("toggle-subscriber-updates off", "toggle-subscriber-updates")
    await step("resources/unsubscribe", "resources/unsubscribe", {"uri": uri})

    # Resources and templates.
    listed = (await request(session, "resources/list")).get("resources", [])
    for resource in listed:
        await step(f"read {resource['name']}", "resources/read", {"uri": resource["uri"]})
    for uri in ["demo://resource/dynamic/text/1", "demo://resource/dynamic/blob/2", "demo://resource/dynamic/text/0",
                "demo://resource/dynamic/text/abc", "demo://resource/nothing"]:
        await step(f"read {uri}", "resources/read", {"uri": uri})

    # Prompts.
    await step("simple-prompt", "prompts/get", {"name": "simple-prompt"})
    await step("args-prompt city", "prompts/get", {"name": "args-prompt", "arguments": {"city": "Paris"}})
    await step("args-prompt city and state", "prompts/get", {"name": "args-prompt", "arguments": {"city": "Austin", "state": "TX"}})
    await step("args-prompt without city", "prompts/get", {"name": "args-prompt"})
    await step("completable-prompt", "prompts/get", {"name": "completable-prompt", "arguments": {"department": "Sales", "name": "Eve"}})
    await step("resource-prompt text", "prompts/get", {"name": "resource-prompt", "arguments": {"resourceType": "Text", "resourceId": "3"}})
    await step("resource-prompt blob", "prompts/get", {"name": "resource-prompt", "arguments": {"resourceType": "Blob", "resourceId": "2"}})
    await step("resource-prompt bad type", "prompts/get", {"name": "resource-prompt", "arguments": {"resourceType": "Video", "resourceId": "2"}})
    await step("resource-prompt bad id", "prompts/get", {"name": "resource-prompt", "arguments": {"resourceType": "Text", "resourceId": "-1"}})
    await step("unknown prompt", "prompts/get", {"name": "no-such-prompt"})

    # Completion.
    prompt = {"type": "ref/prompt", "name": "completable-prompt"}
    await step("complete department E", "completion/complete", {"ref": prompt, "argument": {"name": "department", "value": "E"}})
    await step("complete name given Engineering", "completion/complete", {"ref": prompt, "argument": {"name": "name", "value": ""}, "context": {"arguments": {"department": "Engineering"}}})
    await step("complete name without department", "completion/complete", {"ref": prompt, "argument": {"name": "name", "value": "A"}})
    resource_prompt = {"type": "ref/prompt", "name": "resource-prompt"}
    await step("complete resourceType", "completion/complete", {"ref": resource_prompt, "argument": {"name": "resourceType", "value": "B"}})
    await step("complete resourceId 12", "completion/complete", {"ref": resource_prompt, "argument": {"name": "resourceId", "value": "12"}})
    template = {"type": "ref/resource", "uri": "demo://resource/dynamic/text/{resourceId}"}
    await step("complete template resourceId", "completion/complete", {"ref": template, "argument": {"name": "resourceId", "value": "7"}})
    await step("complete template resourceId x", "completion/complete", {"ref": template, "argument": {"name": "resourceId", "value": "x"}})

    # Roots, sampling, elicitation.
    await call("get-roots-list", "get-roots-list")
    client.roots = list(ROOTS)
    await session.send_roots_list_changed()
    await asyncio.sleep(0.5)
    await call("get-roots-list after list_changed", "get-roots-list")
    client.asked.clear()
    await call("trigger-sampling-request", "trigger-sampling-request", {"prompt": "Say hi", "maxTokens": 20})
    steps["sampling request sent"] = normalise(client.asked[:])
    client.asked.clear()
    await call("trigger-elicitation-request", "trigger-elicitation-request")
    steps["elicitation request sent"] = normalise(client.asked[:])
    client.asked.clear()
    url_args = {"url": "https://example.com/consent", "elicitationId": "consent-1"}
    await call("trigger-url-elicitation", "trigger-url-elicitation", url_args)
    await call("trigger-url-elicitation error path", "trigger-url-elicitation", {**url_args, "errorPath": True})
    await call("trigger-url-elicitation retried", "trigger-url-elicitation", {**url_args, "errorPath": True})
    steps["url elicitation requests sent"] = normalise(client.asked[:])

    # The task (2025-11-25 tasks): called plainly, then as a task, polled, its result read.
    await call("simulate-research-query without a task", "simulate-research-query", {"topic": "python"})
    created = await step("simulate-research-query as a task", "tools/call",
                         {"name": "simulate-research-query", "arguments": {"topic": "python", "ambiguous": True}, "task": {"ttl": 60000}})
    task = (await request(session, "tools/call", {"name": "simulate-research-query", "arguments": {"topic": "rust"}, "task": {"ttl": 60000}})).get("task")
    statuses = []
    if task:
        for _ in range(100):
            got = await request(session, "tasks/get", {"taskId": task["taskId"]})
            statuses.append(got.get("status"))
            if got.get("status") in ("completed", "failed", "cancelled", None):
                break
            await asyncio.sleep(0.2)
        steps["task statuses"] = sorted(set(statuses))
        await step("tasks/result", "tasks/result", {"taskId": task["taskId"]})
        await step("tasks/list", "tasks/list")
        await step("tasks/get unknown", "tasks/get", {"taskId": "no-such-task"})
    else:
        steps["task statuses"] = created
    return steps


async def run(connect, client):
    started = time.perf_counter()
    async with connect() as streams:
        read, write = streams[0], streams[1]
        async with ClientSession(read, write, sampling_callback=client.sampling, elicitation_callback=client.elicitation,
                                 list_roots_callback=client.list_roots, logging_callback=client.logging,
                                 message_handler=client.message) as session:
            init = await session.initialize()
            first = await request(session, "tools/list")
            start_up = time.perf_counter() - started
            assert first.get("tools"), first
            timings = []
            steps = {"initialize": normalise(init.model_dump(by_alias=True, mode="json", exclude_none=True))}
            steps.update(await sequence(session, client, timings))
            return steps, start_up, timings


def stdio(command):
    # The whole environment, so that both read EVERYTHING_DOCS and get-env has something to show.
    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    return lambda: stdio_client(params)


def load_expected(path):
    expected = {}
    for line in open(path, encoding="utf-8"):
        if line.strip() and not line.startswith("#"):
            step, verdict = line.rstrip("\n").split(" | ", 1)
            expected[step.strip()] = verdict
    return expected


def main():
    args = sys.argv[1:]
    http = None
    if "--http" in args:
        http = args[args.index("--http") + 1]
        args = args[: args.index("--http")]
    split = args.index("--")
    reference, ours, expected_path = args[:split], args[split + 1:-1], args[-1]
    ref_steps, ref_start, ref_times = asyncio.run(run(stdio(reference), Client()))
    our_steps, our_start, our_times = asyncio.run(run(stdio(ours), Client()))
    expected = load_expected(expected_path)
    failures, equal, differing, impossible = [], 0, 0, 0
    for name in ref_steps.keys() | our_steps.keys():
        same = ref_steps.get(name) == our_steps.get(name)
        if same:
            equal += 1
            if name in expected:
                failures.append(f"now equal, remove from expected.txt: {name}")
            continue
        verdict = expected.get(name)
        if verdict is None:
            failures.append(f"differs: {name}\n  reference: {json.dumps(ref_steps.get(name))[:1500]}\n  ours:      {json.dumps(our_steps.get(name))[:1500]}")
        elif verdict.startswith("impossible"):
            impossible += 1
        else:
            differing += 1
    if http:
        # The same code over streamable HTTP answers as it does over stdio (sessions aside).
        http_steps, http_start, http_times = asyncio.run(run(lambda: streamable_http_client(http), Client()))
        for name in our_steps:
            if http_steps.get(name) != our_steps[name]:
                failures.append(f"HTTP differs from stdio: {name}\n  stdio: {json.dumps(our_steps[name])[:800]}\n  http:  {json.dumps(http_steps.get(name))[:800]}")
        print(f"ours over HTTP: start-up {http_start * 1000:.0f} ms, median tools/call {statistics.median(http_times) * 1000:.2f} ms")
    print(f"answers: {equal} equal, {differing} differing (each with its verdict in {expected_path}), {impossible} impossible")
    print(f"start-up to the first answer: reference {ref_start * 1000:.0f} ms, ours {our_start * 1000:.0f} ms")
    print(f"median tools/call: reference {statistics.median(ref_times) * 1000:.2f} ms, ours {statistics.median(our_times) * 1000:.2f} ms")
    if failures:
        sys.exit("FAIL\n" + "\n".join(failures))


main()
