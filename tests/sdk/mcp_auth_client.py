"""The official MCP Python SDK (mcp==2.3.0) as the client of a tool-mcp
server that requires a token (tool-mcp/tests/python_sdk_auth.rs starts the
server and, for OAuth, a stand-in authorization server), printing what it
saw as one JSON report on stdout.

    python mcp_auth_client.py static URL TOKEN
    python mcp_auth_client.py oauth URL

`static`: connects without a token (the SDK's error, with the server's
text), then with the token in the HTTP client's headers, as the SDK's users
pass a static token.

`oauth`: connects with the SDK's OAuthClientProvider and no token. On the
401, the SDK reads the protected resource metadata the challenge names,
the authorization server's metadata, registers, and sends the user to
authorize (here: the redirect is recorded, and the callback answers with
a code naming the scopes asked for, which the stand-in authorization
server turns into a token granting them). A call of a tool needing a
scope the token lacks gets a 403 `insufficient_scope`, upon which the SDK
authorizes again with the scopes the challenge names (step-up), and the
call is made again.
"""

import json
import sys
from urllib.parse import parse_qs, urlparse

import anyio
import httpx2
from pydantic import AnyUrl

from mcp import Client
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider, TokenStorage
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken


def texts(result):
    return [block.text for block in result.content if block.type == "text"]


async def exercise(client):
    listed = await client.list_tools()
    hello = await client.call_tool("hello", {})
    secret = await client.call_tool("secret", {})
    return {
        "protocol_version": client.protocol_version,
        "tools": sorted(tool.name for tool in listed.tools),
        "hello": texts(hello),
        "secret": {"isError": secret.is_error, "text": texts(secret)},
    }


def first_leaf(error):
    """The first exception inside (nested) exception groups."""
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    return error


async def static(url, token):
    report = {}
    try:
        async with Client(url, mode="legacy"):
            report["without_token"] = "connected"
    except Exception as error:  # the SDK's own error, whatever its type
        leaf = first_leaf(error)
        report["without_token"] = {"type": type(leaf).__name__, "message": str(leaf)}
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http:
        async with Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
            report["with_token"] = await exercise(client)
    return report


class Memory(TokenStorage):
    def __init__(self):
        self.tokens = None
        self.client_info = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client_info = client_info


async def oauth(url):
    authorizations = []

    async def on_redirect(authorization_url):
        authorizations.append(authorization_url)

    async def on_callback():
        query = parse_qs(urlparse(authorizations[-1]).query)
        # The stand-in authorization server grants the scopes the code names.
        return AuthorizationCodeResult(code="scopes=" + query["scope"][0], state=query["state"][0])

    provider = OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(
            client_name="tool-mcp test",
            redirect_uris=[AnyUrl("http://127.0.0.1:9/callback")],
            grant_types=["authorization_code"],
            response_types=["code"],
        ),
        storage=Memory(),
        redirect_handler=on_redirect,
        callback_handler=on_callback,
    )
    async with httpx2.AsyncClient(auth=provider) as http:
        async with Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
            report = {"connected": await exercise(client)}
    report["metadata"] = provider.context.protected_resource_metadata.model_dump(mode="json", exclude_none=True)
    report["authorizations"] = []
    for authorization_url in authorizations:
        parsed = urlparse(authorization_url)
        query = parse_qs(parsed.query)
        report["authorizations"].append(
            {
                "endpoint": f"{parsed.scheme}://{parsed.netloc}{parsed.path}",
                "resource": query.get("resource"),
                "scope": query.get("scope"),
            }
        )
    return report


async def main(argv):
    if len(argv) == 4 and argv[1] == "static":
        report = await static(argv[2], argv[3])
    elif len(argv) == 3 and argv[1] == "oauth":
        report = await oauth(argv[2])
    else:
        sys.exit(__doc__)
    print(json.dumps(report, indent=2, sort_keys=True))


if __name__ == "__main__":
    anyio.run(main, sys.argv)
