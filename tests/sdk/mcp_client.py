"""The official MCP Python SDK (mcp==2.3.0) as the client of the example
server (examples/mcp_server.rs): it starts the server over stdio, or
connects to it over streamable HTTP, and prints what it saw as one JSON
report on stdout, for tests/mcp_sdk.rs to compare with what the registry
says.

    python mcp_client.py stdio PATH_TO_MCP_SERVER
    python mcp_client.py http URL

The SDK's `Client` connects twice: with `mode="legacy"`, the initialize
handshake, and with `mode="auto"`, which probes `server/discover` and
settles on the newest protocol version both sides speak. Each connection
makes the same calls, and its part of the report says which version it
negotiated. Both declare the tasks extension (SEP-2663) with a claim on
the `task` result type, which the SDK activates only on a 2026 (modern)
connection: there a `long_running` tool's call is answered with a task,
which the claim's resolver follows with `tasks/get` until its result;
on a legacy connection the SDK does not declare the extension, and the
same call is answered with the result itself.

Every step is the SDK's own: its connection and negotiation, its models
reading the tools/list answer and each CallToolResult (checking
structuredContent against the tool's outputSchema), its progress callback,
its cancellation of an abandoned call (a `notifications/cancelled`, or on
a 2026 HTTP connection the close of the call's POST), its MCPError for a
protocol error, and its extension claims; the tasks/* requests go through
its `send_request` with models written here for the extension's wire
shapes.
"""

import json
import sys
from typing import Any, Literal

import anyio
import mcp_types as types
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from mcp import Client, MCPError, StdioServerParameters
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim

TASKS = "io.modelcontextprotocol/tasks"

# A hang guard only: nothing here waits this long unless the server is broken.
PATIENCE_SECONDS = 20.0


class CreatedTask(types.Result):
    """The answer to a tools/call that the server runs as a task."""

    result_type: Literal["task"]
    task_id: str
    status: str


class TaskIdParams(types.RequestParams):
    task_id: str


class GetTask(types.Request[TaskIdParams, Literal["tasks/get"]]):
    method: Literal["tasks/get"] = "tasks/get"
    params: TaskIdParams
    name_param = "taskId"


class CancelTask(types.Request[TaskIdParams, Literal["tasks/cancel"]]):
    method: Literal["tasks/cancel"] = "tasks/cancel"
    params: TaskIdParams
    name_param = "taskId"


class TaskState(types.Result):
    """A task as tasks/get gives it: its result once it has completed."""

    task_id: str
    status: str
    status_message: str | None = None
    result: dict[str, Any] | None = None


async def get_task(session, task_id):
    return await session.send_request(GetTask(params=TaskIdParams(task_id=task_id)), TaskState)


async def until_settled(session, task_id):
    """Polls tasks/get until the task is no longer working (or the
    patience runs out: then the task as last read)."""
    state = await get_task(session, task_id)
    with anyio.move_on_after(PATIENCE_SECONDS):
        while state.status in ("working", "input_required"):
            await anyio.sleep(0.02)
            state = await get_task(session, task_id)
    return state


class Tasks(ClientExtension):
    """The tasks extension: a claim on the `task` result of tools/call,
    resolved by polling tasks/get. Keeps the tasks it followed."""

    identifier = TASKS

    def __init__(self):
        self.followed = []

    def claims(self):
        return [ResultClaim(result_type="task", model=CreatedTask, resolve=self.resolve)]

    async def resolve(self, created: CreatedTask, ctx: ClaimContext) -> types.CallToolResult:
        settled = await until_settled(ctx.session, created.task_id)
        self.followed.append(
            {
                "tool": ctx.tool_name,
                "created_status": created.status,
                "has_task_id": bool(created.task_id),
                "settled_status": settled.status,
            }
        )
        return types.CallToolResult.model_validate(settled.result)


def texts(result):
    return [block.text for block in result.content if block.type == "text"]


def blocks(result):
    return [
        {"type": block.type, "text": block.text}
        if block.type == "text"
        else {"type": block.type, "mimeType": block.mime_type, "data": block.data}
        for block in result.content
    ]


async def stopped_watches(client):
    result = await client.call_tool("stopped_watches", {})
    return int(texts(result)[0])


async def cancelled_watch(client):
    """Starts a watch, cancels the call once the tool has said it is
    watching, and tells how many more watches the server counts as
    stopped afterwards (polled: the tool counts once it sees its token)."""
    before = await stopped_watches(client)
    started = anyio.Event()
    heard = []

    async def on_progress(progress, total, message):
        heard.append(message)
        started.set()

    with anyio.fail_after(PATIENCE_SECONDS):
        async with anyio.create_task_group() as group:

            async def watch():
                await client.call_tool("watch_folder", {"folder": "/srv/inbox"}, progress_callback=on_progress)
                heard.append("the call returned instead of being cancelled")

            group.start_soon(watch)
            await started.wait()
            group.cancel_scope.cancel()
    after = await stopped_watches(client)
    with anyio.move_on_after(PATIENCE_SECONDS):
        while after == before:
            await anyio.sleep(0.02)
            after = await stopped_watches(client)
    return {"progress_heard": heard, "stopped": after - before}


async def cancelled_task(client):
    """Starts a long render as a task, cancels it with tasks/cancel, and
    reads its status."""
    session = client.session
    created = await session.call_tool("render_video", {"name": "feature.mp4", "scenes": 1000}, allow_claimed=True)
    if not isinstance(created, CreatedTask):
        return "answered without a task"
    await session.send_request(CancelTask(params=TaskIdParams(task_id=created.task_id)), types.Result)
    settled = await until_settled(session, created.task_id)
    return {"created_status": created.status, "settled_status": settled.status}


async def exercise(client, tasks):
    report = {"protocol_version": client.protocol_version}
    report["server"] = {
        "name": client.server_info.name,
        "version": client.server_info.version,
        "tools_capability": client.server_capabilities.tools is not None,
        "tasks_extension": TASKS in (client.server_capabilities.extensions or {}),
    }
    listed = await client.list_tools()
    report["tools"] = [
        {"name": tool.name, "inputSchema": tool.input_schema, "outputSchema": tool.output_schema}
        for tool in listed.tools
    ]
    report["next_cursor"] = listed.next_cursor

    calls = {
        "valid": ("get_weather", {"city": "Paris"}),
        "empty_arguments": ("web_search", {}),
        "wrong_type": ("web_search", {"query": 3}),
    }
    for label, (name, arguments) in calls.items():
        result = await client.call_tool(name, arguments)
        report[label] = {"isError": result.is_error, "text": texts(result)}

    try:
        await client.call_tool("no_such_tool", {})
        report["unknown_tool"] = "answered without an error"
    except MCPError as error:
        report["unknown_tool"] = {"code": error.code, "message": error.message}

    # The SDK checks structuredContent against the listed outputSchema.
    summary = await client.call_tool("sales_summary", {"months": [120, 340, 260]})
    report["structured"] = {
        "isError": summary.is_error,
        "structuredContent": summary.structured_content,
        "text": texts(summary),
    }

    chart = await client.call_tool("sales_chart", {"title": "Q1 sales", "months": [120, 340, 260]})
    report["image"] = {"isError": chart.is_error, "content": blocks(chart)}

    heard = []

    async def on_progress(progress, total, message):
        heard.append({"progress": progress, "total": total, "message": message})

    documents = ["a.md", "b.md", "c.md"]
    indexed = await client.call_tool("index_documents", {"documents": documents}, progress_callback=on_progress)
    # The SDK runs each progress callback as a task of its own: give the
    # last ones their turn (bounded, for a server that sends too few).
    with anyio.move_on_after(PATIENCE_SECONDS):
        while len(heard) < len(documents):
            await anyio.sleep(0.01)
    report["progress"] = {"isError": indexed.is_error, "text": texts(indexed), "heard": heard}

    report["cancellation"] = await cancelled_watch(client)

    tasks.followed.clear()
    rendered = await client.call_tool("render_video", {"name": "intro.mp4", "scenes": 3})
    report["task"] = {
        "isError": rendered.is_error,
        "text": texts(rendered),
        "followed": list(tasks.followed),
    }
    # Without tasks, the long render would be waited for to its end.
    modern = client.protocol_version in MODERN_PROTOCOL_VERSIONS
    report["task_cancel"] = await cancelled_task(client) if modern else None
    return report


async def main(argv):
    if len(argv) != 3 or argv[1] not in ("stdio", "http"):
        sys.exit(__doc__)
    server = StdioServerParameters(command=argv[2]) if argv[1] == "stdio" else argv[2]
    report = {}
    for mode in ("legacy", "auto"):
        tasks = Tasks()
        async with Client(server, mode=mode, extensions=[tasks]) as client:
            report[mode] = await exercise(client, tasks)
    print(json.dumps(report, indent=2, sort_keys=True))


if __name__ == "__main__":
    anyio.run(main, sys.argv)
