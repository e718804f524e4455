"""The official MCP Python SDK (mcp==2.3.0) answering a tool's question:
it starts the example server (examples/mcp_server.rs) over stdio,
connects with the initialize handshake (`mode="legacy"`), and calls
`book_room`, whose tool asks the person which room through elicitation.
The SDK's elicitation callback plays the person: it accepts with a room,
then declines. A second connection gives no callback, so the SDK declares
no elicitation capability. A third connects on the SDK's defaults
(protocol 2026-07-28, no session): the same questions reach the callback
as `input_required` rounds, and `convert_currency`, of tier `Confirm`, is
approved by the person, then refused. Prints one JSON report on stdout,
for tests/mcp_sdk.rs to compare with what the tool and its question say.

    python elicit_client.py PATH_TO_MCP_SERVER
"""

import json
import sys

import anyio
import mcp_types as types

from mcp import Client, StdioServerParameters

# A hang guard only: nothing here waits this long unless the server is broken.
PATIENCE_SECONDS = 20.0


def texts(result):
    return [block.text for block in result.content if block.type == "text"]


async def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    server = StdioServerParameters(command=argv[1])
    asked = []
    answers = [
        types.ElicitResult(action="accept", content={"room": "double", "breakfast": True}),
        types.ElicitResult(action="decline"),
    ]

    async def person(context, params):
        asked.append(
            {
                "mode": params.mode,
                "message": params.message,
                "requestedSchema": params.requested_schema,
            }
        )
        return answers.pop(0)

    report = {}
    with anyio.fail_after(PATIENCE_SECONDS):
        async with Client(server, mode="legacy", elicitation_callback=person) as client:
            results = []
            for _ in range(2):
                result = await client.call_tool("book_room", {"night": "2026-12-01"})
                results.append({"isError": result.is_error, "text": texts(result)})
            report["answered"] = {"asked": asked, "results": results}
        async with Client(server, mode="legacy") as client:
            result = await client.call_tool("book_room", {"night": "2026-12-01"})
            report["no_elicitation"] = {"isError": result.is_error, "text": texts(result)}
        asked = []
        answers.extend(
            [
                types.ElicitResult(action="accept", content={"room": "single", "breakfast": False}),
                types.ElicitResult(action="decline"),
                types.ElicitResult(action="accept"),
                types.ElicitResult(action="decline"),
            ]
        )
        async with Client(server, elicitation_callback=person) as client:
            results = []
            for _ in range(2):
                result = await client.call_tool("book_room", {"night": "2026-12-02"})
                results.append({"isError": result.is_error, "text": texts(result)})
            for _ in range(2):
                result = await client.call_tool(
                    "convert_currency", {"amount": 10, "from": "EUR", "to": "USD"}
                )
                results.append({"isError": result.is_error, "text": texts(result)})
            report["defaults"] = {
                "protocol": client.protocol_version,
                "asked": asked,
                "results": results,
            }
    print(json.dumps(report, indent=2, sort_keys=True))


if __name__ == "__main__":
    anyio.run(main, sys.argv)
