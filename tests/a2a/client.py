"""The official Python client (a2a-sdk 1.3) against this crate's A2A server
(examples/a2a_agent.rs): send, stream, get, list, cancel, input-required, failure. Each check
prints one line; the exit status is the number of checks that failed.

Usage: python client.py URL [1.0 | 0.3 | rest]
  1.0   JSON-RPC, protocol 1.0 (the default)
  0.3   JSON-RPC, protocol 0.3, through the SDK's compatibility transport (0.3 has no ListTasks)
  rest  the HTTP+JSON binding of 1.0
"""
import asyncio
import sys

import httpx

from a2a.client import ClientConfig, create_client
from a2a.client.card_resolver import parse_agent_card
from a2a.helpers import get_artifact_text, get_message_text, new_text_message
from a2a.types import (
    CancelTaskRequest,
    GetTaskRequest,
    ListTasksRequest,
    Role,
    SendMessageConfiguration,
    SendMessageRequest,
    TaskState,
)

failed = 0


def check(name, ok, detail=""):
    global failed
    print(("ok     " if ok else "FAILED ") + name + ("" if ok else f": {detail}"))
    failed += 0 if ok else 1


def request(text, task=None, immediately=False):
    message = new_text_message(text, role=Role.ROLE_USER)
    if task is not None:
        message.task_id, message.context_id = task.id, task.context_id
    configuration = SendMessageConfiguration(return_immediately=immediately)
    return SendMessageRequest(message=message, configuration=configuration)


async def last(client, req):
    events = [event async for event in client.send_message(req)]
    return events, events[-1]


async def main(url, version):
    card = httpx.get(f"{url}/.well-known/agent-card.json").json()
    # The card lists JSON-RPC 1.0, HTTP+JSON 1.0, JSON-RPC 0.3: keep the one under test.
    binding, protocol = ("HTTP+JSON", "1.0") if version == "rest" else ("JSONRPC", version)
    card["supportedInterfaces"] = [
        i for i in card["supportedInterfaces"] if (i["protocolBinding"], i["protocolVersion"]) == (binding, protocol)
    ]
    card = parse_agent_card(card)
    config = lambda streaming: ClientConfig(streaming=streaming, supported_protocol_bindings=[binding])
    blocking = await create_client(card, client_config=config(False))
    streaming = await create_client(card, client_config=config(True))
    print(f"protocol {version}: {type(blocking._transport).__name__}")

    _, reply = await last(blocking, request("/hello"))
    check("send: a direct message", reply.HasField("message") and "Hello" in get_message_text(reply.message), reply)

    _, reply = await last(blocking, request("ping"))
    task = reply.task
    text = get_artifact_text(task.artifacts[0]) if task.artifacts else ""
    check("send: a completed task with its artifact", task.status.state == TaskState.TASK_STATE_COMPLETED and text == "You said: ping", reply)

    _, reply = await last(blocking, request("/weather"))
    asked = reply.task
    question = get_message_text(asked.status.message)
    check("send: input required, with the question", asked.status.state == TaskState.TASK_STATE_INPUT_REQUIRED and question == "Which city?", reply)
    _, reply = await last(blocking, request("Paris", task=asked))
    text = get_artifact_text(reply.task.artifacts[-1]) if reply.task.artifacts else ""
    check("send: the answer on the same task completes it", reply.task.id == asked.id and reply.task.status.state == TaskState.TASK_STATE_COMPLETED and "Paris" in text, reply)

    events, reply = await last(streaming, request("stream me"))
    kinds = [next((k for k in ("task", "message", "status_update", "artifact_update") if event.HasField(k)), None) for event in events]
    final = reply.status_update.status.state if reply.HasField("status_update") else reply.task.status.state
    check("stream: task, working, artifact, completed", kinds[0] == "task" and "status_update" in kinds and "artifact_update" in kinds and final == TaskState.TASK_STATE_COMPLETED, kinds)
    streamed = events[0].task

    got = await blocking.get_task(GetTaskRequest(id=streamed.id))
    check("get: the streamed task, completed", got.id == streamed.id and got.status.state == TaskState.TASK_STATE_COMPLETED, got)

    if version != "0.3":
        listed = await blocking.list_tasks(ListTasksRequest())
        ids = {t.id for t in listed.tasks}
        check("list: the tasks so far", {task.id, asked.id, streamed.id} <= ids, ids)
        completed = await blocking.list_tasks(ListTasksRequest(context_id=asked.context_id))
        check("list: filtered by context", [t.id for t in completed.tasks] == [asked.id], completed)

    _, reply = await last(blocking, request("/slow", immediately=True))
    slow = reply.task
    canceled = await blocking.cancel_task(CancelTaskRequest(id=slow.id))
    check("cancel: a working task ends canceled", canceled.status.state == TaskState.TASK_STATE_CANCELED, canceled)
    try:
        await blocking.cancel_task(CancelTaskRequest(id=slow.id))
        check("cancel: a canceled task cannot be canceled again", False, "no error")
    except Exception as error:  # the SDK raises its TaskNotCancelableError
        print(f"       ({type(error).__name__}: {error})")
        check("cancel: a canceled task cannot be canceled again", type(error).__name__ == "TaskNotCancelableError", error)

    _, reply = await last(blocking, request("/fail"))
    check("send: a failed task, with the reason", reply.task.status.state == TaskState.TASK_STATE_FAILED and "fail" in get_message_text(reply.task.status.message), reply)

    try:
        await blocking.get_task(GetTaskRequest(id="no-such-task"))
        check("get: an unknown task is an error", False, "no error")
    except Exception as error:
        print(f"       ({type(error).__name__}: {error})")
        check("get: an unknown task is an error", type(error).__name__ == "TaskNotFoundError", error)


asyncio.run(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "1.0"))
sys.exit(failed)
