"""An MCP server on the Python SDK (mcp, pinned in requirements.txt) over
stdio, whose tools tool-mcp/tests/mount_servers.rs mounts: one with a
text result, one with structured output."""

from pydantic import BaseModel

from mcp.server.mcpserver import MCPServer

server = MCPServer("py-weather", version="0.1.0")


class Weather(BaseModel):
    city: str
    temperature: float
    conditions: str


@server.tool(structured_output=False)
def greet(name: str) -> str:
    """Greet someone by name."""
    return f"Hello, {name}!"


@server.tool()
def weather(city: str) -> Weather:
    """The weather in a city."""
    return Weather(city=city, temperature=21.5, conditions="sunny")


if __name__ == "__main__":
    server.run()
