// What a newcomer's MCP server must do for the official TypeScript SDK
// (@modelcontextprotocol/sdk, pinned in package.json beside this file) as
// its client, against the example server (examples/mcp_server.rs), for
// tests/mcp_first_hour.rs:
//
//     node first_hour.mjs stdio PATH_TO_MCP_SERVER
//     node first_hour.mjs http URL TOKEN
//
// Each case prints one line, `NAME<TAB>JSON`: what the SDK saw, or
// `NAME<TAB>{"error": MESSAGE}` when it threw; a case that throws does not
// stop the others. Over HTTP the server wants TOKEN as a bearer token.
//
// The cases: a plain tool called with an optional argument given and left
// out, its schema's optional parameters being plain types; a `Confirm`
// tool's call put to the person at the client (accepted, declined), and
// left to the server's rules for a client that cannot be asked; the tools
// listed to a caller without a scope and, over HTTP, with one; a call
// without the token over HTTP.

import { createRequire } from "node:module";
import { join } from "node:path";

const modules = process.env.TOOL_SDK_NODE_MODULES;
if (!modules) {
  console.error("TOOL_SDK_NODE_MODULES is not set: run scripts/test, which installs tests/sdk/node");
  process.exit(2);
}
const require = createRequire(join(modules, "..", "resolve-from-here.js"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { ElicitRequestSchema } = require("@modelcontextprotocol/sdk/types.js");

/** A client of the server of `run`; `person` answers its questions. */
async function connect(run, { person, token = run.token } = {}) {
  const capabilities = person ? { elicitation: { form: {} } } : {};
  const client = new Client({ name: "first-hour", version: "1.0.0" }, { capabilities });
  const asked = [];
  if (person) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return person === "accept" ? { action: "accept", content: {} } : { action: person };
    });
  }
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const transport =
    run.transport === "stdio"
      ? new StdioClientTransport({ command: run.target, stderr: "ignore" })
      : new StreamableHTTPClientTransport(new URL(run.target), { requestInit: { headers } });
  await client.connect(transport);
  return { client, asked };
}

function answer(result) {
  const texts = result.content.filter((block) => block.type === "text").map((block) => block.text);
  return { texts, isError: result.isError ?? false };
}

async function withClient(run, options, body) {
  const { client, asked } = await connect(run, options);
  try {
    return await body(client, asked);
  } finally {
    await client.close();
  }
}

const convert = { name: "convert_currency", arguments: { amount: 5000, from: "EUR", to: "USD" } };

const CASES = [
  [
    "optional_parameters",
    (run) =>
      withClient(run, {}, async (client) => {
        const { tools } = await client.listTools();
        const weather = tools.find((tool) => tool.name === "get_weather");
        return {
          properties: weather.inputSchema.properties,
          required: weather.inputSchema.required ?? [],
          given: answer(await client.callTool({ name: "get_weather", arguments: { city: "Oslo", units: "fahrenheit" } })),
          left_out: answer(await client.callTool({ name: "get_weather", arguments: {} })),
          null_sent: answer(await client.callTool({ name: "get_weather", arguments: { city: null } })),
        };
      }),
  ],
  [
    "asked_and_accepted",
    (run) =>
      withClient(run, { person: "accept" }, async (client, asked) => ({
        result: answer(await client.callTool(convert)),
        asked,
      })),
  ],
  [
    "asked_and_declined",
    (run) =>
      withClient(run, { person: "decline" }, async (client, asked) => ({
        result: answer(await client.callTool(convert)),
        asked,
      })),
  ],
  [
    "not_asked",
    (run) =>
      withClient(run, {}, async (client) => ({
        small: answer(await client.callTool({ ...convert, arguments: { ...convert.arguments, amount: 100 } })),
        large: answer(await client.callTool(convert)),
      })),
  ],
  [
    "listed_without_the_scope",
    (run) =>
      withClient(run, { token: run.transport === "http" ? "" : undefined }, async (client) => {
        if (run.transport === "http") return "refused before listing";
        const { tools } = await client.listTools();
        return {
          listed: tools.map((tool) => tool.name),
          called: answer(await client.callTool({ name: "reset_sales", arguments: {} })),
        };
      }).catch((error) => ({ refused: String(error.message ?? error) })),
  ],
  [
    "listed_with_the_scope",
    (run) =>
      run.transport === "stdio"
        ? Promise.resolve("no token over stdio")
        : withClient(run, {}, async (client) => {
            const { tools } = await client.listTools();
            return {
              listed: tools.map((tool) => tool.name),
              called: answer(await client.callTool({ name: "reset_sales", arguments: {} })),
            };
          }),
  ],
];

async function main() {
  const [transport, target, token] = process.argv.slice(2);
  const run = { transport, target, token };
  for (const [name, run_case] of CASES) {
    let seen;
    try {
      seen = await run_case(run);
    } catch (error) {
      seen = { error: String(error?.message ?? error) };
    }
    console.log(`${name}\t${JSON.stringify(seen)}`);
  }
}

await main();
