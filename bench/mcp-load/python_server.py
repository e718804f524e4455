"""The official Python MCP SDK's server (mcp 2.x): `add_note` and 99 fillers
registered on one `MCPServer`, served over streamable HTTP at
http://127.0.0.1:PORT/mcp by the SDK's own `run("streamable-http")`
(Starlette on uvicorn, the SDK's defaults: sessions on, SSE responses).

Usage: python python_server.py --port PORT

The tools are `async def`: the SDK runs a plain `def` tool on a worker
thread (anyio.to_thread), and these tools do no I/O, so `async def` is the
cheapest way to serve them, the best case for this server.
"""

import argparse
from typing import Annotated

from pydantic import Field

from mcp.server.mcpserver import MCPServer

# The same parameter schema as the Rust servers' `u8`: an integer 0..=255.
Title = Annotated[str, Field(description="The note's title.")]
Body = Annotated[str, Field(description="The note's text.")]
Priority = Annotated[int, Field(ge=0, le=255, description="1 (highest) to 5.")]

# WARNING: no per-request access log (uvicorn takes the level from here).
server = MCPServer("python-sdk-notes", log_level="WARNING")


# structured_output=False: a `str` result as one text block and nothing
# else, as the Rust servers answer (auto-detection would add a
# structuredContent {"result": ...} from the return annotation).
@server.tool(structured_output=False)
async def add_note(title: Title, body: Body, priority: Priority) -> str:
    """Add a note to the user's notebook."""
    return f"added note `{title}` (priority {priority}): {body}"


def filler(name: str):
    async def note(title: Title, body: Body, priority: Priority) -> str:
        return f"{name}: `{title}` (priority {priority}): {body}"

    return note


for i in range(1, 100):
    server.add_tool(
        filler(f"note_{i}"),
        name=f"note_{i}",
        description="Add a note to another notebook.",
        structured_output=False,
    )

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    server.run("streamable-http", host="127.0.0.1", port=args.port)
