"""The official MCP Python SDK (mcp==2.3.0) as the client of the example
server (examples/mcp_server.rs): it starts the server over stdio, or
connects to it over streamable HTTP, and prints what it saw as one JSON
report on stdout, for tests/mcp_sdk.rs to compare with what the registry
says.

    python mcp_client.py stdio PATH_TO_MCP_SERVER
    python mcp_client.py http URL

Every step is the SDK's own: its initialize, its models reading the
tools/list answer and each CallToolResult, its MCPError for a protocol
error.
"""

import json
import sys

import anyio

from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client


def texts(result):
    return [block.text for block in result.content if block.type == "text"]


async def exercise(session):
    report = {}
    initialized = await session.initialize()
    report["server"] = {
        "name": initialized.server_info.name,
        "version": initialized.server_info.version,
        "tools_capability": initialized.capabilities.tools is not None,
    }
    listed = await session.list_tools()
    report["tools"] = [
        {"name": tool.name, "inputSchema": tool.input_schema} for tool in listed.tools
    ]
    report["next_cursor"] = listed.next_cursor

    calls = {
        "valid": ("get_weather", {"city": "Paris"}),
        "empty_arguments": ("web_search", {}),
        "wrong_type": ("web_search", {"query": 3}),
    }
    for label, (name, arguments) in calls.items():
        result = await session.call_tool(name, arguments)
        report[label] = {"isError": result.is_error, "text": texts(result)}

    try:
        await session.call_tool("no_such_tool", {})
        report["unknown_tool"] = "answered without an error"
    except MCPError as error:
        report["unknown_tool"] = {"code": error.code, "message": error.message}
    return report


async def main(argv):
    if len(argv) != 3 or argv[1] not in ("stdio", "http"):
        sys.exit(__doc__)
    if argv[1] == "stdio":
        transport = stdio_client(StdioServerParameters(command=argv[2]))
    else:
        transport = streamable_http_client(argv[2])
    async with transport as (read, write):
        async with ClientSession(read, write) as session:
            report = await exercise(session)
    print(json.dumps(report, indent=2, sort_keys=True))


if __name__ == "__main__":
    anyio.run(main, sys.argv)
