"""A test peer for the A2A client: the official Python SDK (a2a-sdk 1.3) serving an agent with
two skills on 127.0.0.1, its behaviour chosen by the message's text, so that every reply the
client maps can be asked for:

- "hello ..."       a direct message reply;
- "data ..."        a completed task with a text artifact and a data artifact;
- "weather"         input required ("Which city?"); the follow-up on the same task completes it;
- "fail ..."        a failed task with a status message;
- "steps"           two status updates ("step 1", "step 2") before its artifact;
- "slow"            a task that works for a minute (to be canceled);
- anything else     a completed task whose artifact echoes the text.

Usage: python peer.py PORT [0.3]   (0.3: the card and the wire of protocol version 0.3; in 1.0
                                   the HTTP+JSON binding is served too, under /rest)
"""
import asyncio
import sys

import uvicorn
from starlette.applications import Starlette

from a2a.helpers import new_data_part, new_task_from_user_message, new_text_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill


class Peer(AgentExecutor):
    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        text = context.get_user_input()
        if text.startswith("hello"):
            await event_queue.enqueue_event(new_text_message(f"hello to you: {text}"))
            return
        task = context.current_task or new_task_from_user_message(context.message)
        if context.current_task is None:
            await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        await updater.start_work()
        if text == "steps":
            for step in ("step 1", "step 2"):
                await updater.start_work(updater.new_agent_message([new_text_part(step)]))
                await asyncio.sleep(0.05)
            await updater.add_artifact([new_text_part("stepped")], name="answer")
            await updater.complete()
        elif text == "slow":
            await updater.start_work(updater.new_agent_message([new_text_part("looking at the sky")]))
            await asyncio.sleep(60)
            await updater.complete()
        elif text.startswith("fail"):
            await updater.failed(updater.new_agent_message([new_text_part("the forecast service is down")]))
        elif text == "weather":
            await updater.requires_input(updater.new_agent_message([new_text_part("Which city?")]))
        elif text.startswith("data"):
            await updater.add_artifact([new_text_part("two readings")], name="readings")
            await updater.add_artifact([new_data_part({"celsius": 21, "city": "Oslo"})], name="data")
            await updater.complete()
        else:
            answer = f"forecast for {text}: sunny" if context.current_task else f"echo: {text}"
            await updater.add_artifact([new_text_part(answer)], name="answer")
            await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        await updater.cancel()


def main() -> None:
    port = int(sys.argv[1])
    version = sys.argv[2] if len(sys.argv) > 2 else "1.0"
    url = f"http://127.0.0.1:{port}/"
    card = AgentCard(
        name="Weather Desk",
        description="Forecasts, and echoes",
        version="1.0.0",
        capabilities=AgentCapabilities(streaming=True),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain", "application/json"],
        supported_interfaces=[AgentInterface(protocol_binding="JSONRPC", url=url, protocol_version=version)]
        + ([AgentInterface(protocol_binding="HTTP+JSON", url=f"{url}rest", protocol_version="1.0")] if version == "1.0" else []),
        skills=[
            AgentSkill(id="forecast", name="Forecast", description="Forecasts a city's weather", tags=["weather"],
                       examples=["weather"]),
            AgentSkill(id="echo", name="Echo", description="Echoes what it is told", tags=["test"]),
        ],
    )
    handler = DefaultRequestHandler(agent_executor=Peer(), task_store=InMemoryTaskStore(), agent_card=card)
    routes = create_agent_card_routes(card) + create_jsonrpc_routes(handler, "/", enable_v0_3_compat=version == "0.3")
    if version == "1.0":
        routes += create_rest_routes(handler, path_prefix="/rest")
    uvicorn.run(Starlette(routes=routes), host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main()
