// The official MCP TypeScript SDK's v2 client (@modelcontextprotocol/client,
// pinned in package.json beside this file) playing the person a tool asks,
// against the example server (examples/mcp_server.rs), for
// tests/mcp_sdk.rs to compare with what the tool and its question say:
//
//     node elicit_client.mjs stdio PATH_TO_MCP_SERVER
//     node elicit_client.mjs http URL
//
// TOOL_SDK_NODE_MODULES names the node_modules the packages were installed
// in (scripts/test installs them into target/sdk-node/node_modules).
//
// Two connections, each with an elicitation handler as the person:
// `legacy`, the client's defaults (the initialize handshake, protocol
// 2025-11-25, where the server asks with `elicitation/create` requests),
// and `auto`, the client's opt-in negotiation (`server/discover`, protocol
// 2026-07-28, where each question comes back as an `input_required`
// result that the client answers through the same handler and calls
// again with `inputResponses` and the server's `requestState`). On each,
// `book_room` is called twice (the person chooses a room, then declines)
// and `convert_currency`, of tier `Confirm`, twice (the person approves,
// then declines). Prints one JSON report on stdout: per connection, the
// protocol version, every question asked (mode, message, requestedSchema)
// and every result (isError, texts).

import { createRequire } from "node:module";
import { join } from "node:path";

const modules = process.env.TOOL_SDK_NODE_MODULES;
if (!modules) {
  console.error("TOOL_SDK_NODE_MODULES is not set: run scripts/test, which installs tests/sdk/node");
  process.exit(2);
}
// The packages live under target/, not beside this file: resolve them from
// there (the client's CommonJS build, which its package exports for require).
const require = createRequire(join(modules, "..", "resolve-from-here.js"));
const { Client, StreamableHTTPClientTransport } = require("@modelcontextprotocol/client");
const { StdioClientTransport } = require("@modelcontextprotocol/client/stdio");

// A hang guard only: nothing here waits this long unless the server is broken.
const PATIENCE_MS = 20_000;

// How each connection negotiates its protocol version: the client's
// default, and the negotiation that reaches 2026-07-28.
const CONNECTIONS = [
  ["legacy", undefined],
  ["auto", { mode: "auto" }],
];

const BOOK = { name: "book_room", arguments: { night: "2026-12-02" } };
const CONVERT = { name: "convert_currency", arguments: { amount: 10, from: "EUR", to: "USD" } };

function texts(result) {
  return result.content.filter((block) => block.type === "text").map((block) => block.text);
}

/** The calls and the person's answer to each one's question, in order. */
function script() {
  return [
    [BOOK, { action: "accept", content: { room: "single", breakfast: false } }],
    [BOOK, { action: "decline" }],
    // Approving a `Confirm` tool's call is accepting with no content.
    [CONVERT, { action: "accept" }],
    [CONVERT, { action: "decline" }],
  ];
}

/** What one connection saw. */
async function converse(run, versionNegotiation) {
  const client = new Client(
    { name: "tool-core-sdk-test", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation },
  );
  const asked = [];
  const answers = [];
  client.setRequestHandler("elicitation/create", async (request) => {
    const { mode, message, requestedSchema } = request.params;
    asked.push({ mode: mode ?? null, message, requestedSchema: requestedSchema ?? null });
    return answers.shift() ?? { action: "cancel" };
  });
  const transport =
    run.transport === "stdio"
      ? new StdioClientTransport({ command: run.target, stderr: "inherit" })
      : new StreamableHTTPClientTransport(new URL(run.target));
  await client.connect(transport);
  try {
    const results = [];
    for (const [call, answer] of script()) {
      answers.push(answer);
      const result = await client.callTool(call, { timeout: PATIENCE_MS });
      results.push({ isError: result.isError ?? false, text: texts(result) });
    }
    return { protocol: client.getNegotiatedProtocolVersion() ?? null, asked, results };
  } finally {
    await client.close();
  }
}

async function main(argv) {
  const [transport, target] = argv;
  if (argv.length !== 2 || !["stdio", "http"].includes(transport)) {
    console.error("usage: node elicit_client.mjs stdio PATH_TO_MCP_SERVER | http URL");
    process.exit(2);
  }
  const run = { transport, target };
  const guard = setTimeout(() => {
    console.error(`no report in ${PATIENCE_MS} ms`);
    process.exit(1);
  }, PATIENCE_MS);
  const report = {};
  for (const [name, versionNegotiation] of CONNECTIONS) {
    report[name] = await converse(run, versionNegotiation);
  }
  clearTimeout(guard);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

await main(process.argv.slice(2));
