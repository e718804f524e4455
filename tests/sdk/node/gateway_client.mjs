// The official MCP TypeScript SDK (@modelcontextprotocol/sdk) as a client
// of the gateway example served on an address (examples/gateway.rs,
// `--serve`), for tests/gateway_example.rs:
//
//     node gateway_client.mjs URL
//
// TOOL_SDK_NODE_MODULES names the node_modules the packages were installed
// in. Prints one JSON object: the tools the gateway lists, a call of a
// mounted tool, and the progress each of several calls of the reference
// server's long-running operation heard (two steps each, the second sent
// just before the answer), through the gateway's mount of that server.

import { createRequire } from "node:module";
import { join } from "node:path";

const modules = process.env.TOOL_SDK_NODE_MODULES;
if (!modules) {
  console.error("TOOL_SDK_NODE_MODULES is not set: run scripts/test, which installs tests/sdk/node");
  process.exit(2);
}
const require = createRequire(join(modules, "..", "resolve-from-here.js"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { CallToolResultSchema } = require("@modelcontextprotocol/sdk/types.js");

const ROUNDS = 5;

const client = new Client({ name: "tool-core-gateway-test", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(process.argv[2])));

const tools = (await client.listTools()).tools.map((tool) => tool.name);
const sum = await client.callTool({ name: "everything_get-sum", arguments: { a: 2, b: 3 } });

const progress = [];
for (let round = 0; round < ROUNDS; round++) {
  const heard = [];
  const result = await client.callTool(
    { name: "everything_trigger-long-running-operation", arguments: { duration: 0.1, steps: 2 } },
    CallToolResultSchema,
    { onprogress: (report) => heard.push([report.progress, report.total]) },
  );
  progress.push({ heard, text: result.content.map((block) => block.text).join("") });
}

console.log(JSON.stringify({ tools, sum: sum.content.map((block) => block.text).join(""), progress }));
await client.close();
