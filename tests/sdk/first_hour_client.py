"""What a newcomer's MCP server must do for the official MCP Python SDK
(mcp==2.3.0) as its client, against the example server
(examples/mcp_server.rs), for tests/mcp_first_hour.rs: the same cases as
tests/sdk/node/first_hour.mjs, one line each, `NAME<TAB>JSON`.

    python first_hour_client.py stdio PATH_TO_MCP_SERVER
    python first_hour_client.py http URL TOKEN

Every connection opens with the initialize handshake (`mode="legacy"`,
protocol 2025-11-25): the 2026-07-28 protocol forbids the server's
questions to its client, so only there can the person at the client be
asked. A case that raises prints `{"error": MESSAGE}` and the others go on.
"""

import json
import sys
from contextlib import asynccontextmanager

import anyio
import httpx2
import mcp_types as types

from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

CONVERT = {"amount": 5000, "from": "EUR", "to": "USD"}


def answer(result):
    texts = [block.text for block in result.content if block.type == "text"]
    return {"texts": texts, "isError": bool(result.is_error)}


@asynccontextmanager
async def connect(run, person=None, token=None):
    """A client of the server of `run`; `person` answers its questions."""
    asked = []
    callback = None
    if person is not None:

        async def callback(context, params):
            asked.append(params.message)
            if person == "accept":
                return types.ElicitResult(action="accept", content={})
            return types.ElicitResult(action=person)

    if run["transport"] == "stdio":
        async with Client(
            StdioServerParameters(command=run["target"]), mode="legacy", elicitation_callback=callback
        ) as client:
            yield client, asked
        return
    token = run["token"] if token is None else token
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx2.AsyncClient(headers=headers) as http:
        async with Client(
            streamable_http_client(run["target"], http_client=http),
            mode="legacy",
            elicitation_callback=callback,
        ) as client:
            yield client, asked


async def optional_parameters(run):
    async with connect(run) as (client, _):
        listed = await client.list_tools()
        weather = next(tool for tool in listed.tools if tool.name == "get_weather")
        return {
            "properties": weather.input_schema["properties"],
            "required": weather.input_schema.get("required", []),
            "given": answer(await client.call_tool("get_weather", {"city": "Oslo", "units": "fahrenheit"})),
            "left_out": answer(await client.call_tool("get_weather", {})),
            "null_sent": answer(await client.call_tool("get_weather", {"city": None})),
        }


async def asked(run, person):
    async with connect(run, person=person) as (client, questions):
        return {"result": answer(await client.call_tool("convert_currency", CONVERT)), "asked": questions}


async def asked_and_accepted(run):
    return await asked(run, "accept")


async def asked_and_declined(run):
    return await asked(run, "decline")


async def not_asked(run):
    async with connect(run) as (client, _):
        return {
            "small": answer(await client.call_tool("convert_currency", {**CONVERT, "amount": 100})),
            "large": answer(await client.call_tool("convert_currency", CONVERT)),
        }


async def listed(run, token=None):
    async with connect(run, token=token) as (client, _):
        tools = await client.list_tools()
        return {
            "listed": [tool.name for tool in tools.tools],
            "called": answer(await client.call_tool("reset_sales", {})),
        }


async def listed_without_the_scope(run):
    if run["transport"] == "http":
        # Without its token an HTTP caller is refused before anything.
        try:
            await listed(run, token="")
            return "listed without a token"
        except Exception as error:  # the SDK's error, whatever its class
            while isinstance(error, BaseExceptionGroup) and error.exceptions:
                error = error.exceptions[0]
            return {"refused": f"{type(error).__name__}: {error}"}
    return await listed(run)


async def listed_with_the_scope(run):
    if run["transport"] == "stdio":
        return "no token over stdio"
    return await listed(run)


CASES = [
    ("optional_parameters", optional_parameters),
    ("asked_and_accepted", asked_and_accepted),
    ("asked_and_declined", asked_and_declined),
    ("not_asked", not_asked),
    ("listed_without_the_scope", listed_without_the_scope),
    ("listed_with_the_scope", listed_with_the_scope),
]


async def main(argv):
    if len(argv) not in (3, 4) or argv[1] not in ("stdio", "http"):
        sys.exit(__doc__)
    run = {"transport": argv[1], "target": argv[2], "token": argv[3] if len(argv) == 4 else None}
    for name, case in CASES:
        try:
            with anyio.fail_after(30):
                seen = await case(run)
        except Exception as error:
            seen = {"error": f"{type(error).__name__}: {error}"}
        print(f"{name}\t{json.dumps(seen, sort_keys=True)}", flush=True)


if __name__ == "__main__":
    anyio.run(main, sys.argv)
