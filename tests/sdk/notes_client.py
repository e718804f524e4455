"""MCP's Python SDK (mcp==2.3.0), on its defaults (protocol 2026-07-28),
as a client of the README's server (examples/mcp_notes.rs) over stdio:
it reads the resource, gets the prompt, and calls the tool that asks the
person, whom its elicitation callback plays (yes, then no). Prints one
JSON report on stdout, for tests/readme_mcp.rs.

    python notes_client.py PATH_TO_MCP_NOTES
"""

import json
import sys

import anyio
import mcp_types as types

from mcp import Client, StdioServerParameters

# A hang guard only: nothing here waits this long unless the server is broken.
PATIENCE_SECONDS = 20.0


async def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    asked = []
    answers = [
        types.ElicitResult(action="accept", content={"sure": True}),
        types.ElicitResult(action="accept", content={"sure": False}),
    ]

    async def person(context, params):
        asked.append(params.message)
        return answers.pop(0)

    report = {}
    with anyio.fail_after(PATIENCE_SECONDS):
        server = StdioServerParameters(command=argv[1])
        async with Client(server, elicitation_callback=person) as client:
            report["protocol"] = client.protocol_version
            read = await client.read_resource("notes://all")
            report["resource"] = [content.text for content in read.contents]
            prompt = await client.get_prompt("summarize", {"words": "20"})
            report["prompt"] = [message.content.text for message in prompt.messages]
            results = []
            for note in (3, 4):
                result = await client.call_tool("delete_note", {"id": note})
                results.append([block.text for block in result.content if block.type == "text"])
            report["tool"] = {"asked": asked, "results": results}
    print(json.dumps(report, indent=2, sort_keys=True))


if __name__ == "__main__":
    anyio.run(main, sys.argv)
