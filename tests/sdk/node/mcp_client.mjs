// The official MCP TypeScript SDK (@modelcontextprotocol/sdk, pinned in
// package.json beside this file) as the client of the example server
// (examples/mcp_server.rs), for tests/mcp_sdk.rs to compare with what the
// registry says:
//
//     node mcp_client.mjs stdio PATH_TO_MCP_SERVER
//     node mcp_client.mjs http URL
//
// TOOL_SDK_NODE_MODULES names the node_modules the packages were installed
// in (scripts/test installs them into target/sdk-node/node_modules).
//
// Each case prints one line, `NAME<TAB>JSON`: what the SDK saw, or
// `NAME<TAB>{"error": MESSAGE}` when the case threw. A case that throws
// does not stop the others, so a failing test names every case that went
// wrong. The SDK speaks protocol 2025-11-25, and its tasks are that
// version's (params.task, tasks/get, tasks/result, tasks/cancel), not the
// 2026 extension the Python SDK uses.
//
// To add a case: write `async function myCase(client, run)` returning a
// JSON value (keep it to what the test should compare: no ids, no times),
// and add `["my_case", myCase]` to CASES. `client` is the connected SDK
// Client (its tool list already read); `run` holds the transport ("stdio"
// or "http") and target (the server's path or URL), to open further
// connections with `connect(run, options)` (another client, or HTTP
// headers such as a bearer token through `options.requestInit`). Then add
// the expected value under the same name in tests/mcp_sdk.rs
// (`expected_node`).

import { createRequire } from "node:module";
import { join } from "node:path";

const modules = process.env.TOOL_SDK_NODE_MODULES;
if (!modules) {
  console.error("TOOL_SDK_NODE_MODULES is not set: run scripts/test, which installs tests/sdk/node");
  process.exit(2);
}
// The packages live under target/, not beside this file: resolve them from
// there (the SDK's CommonJS build, which its package exports for require).
const require = createRequire(join(modules, "..", "resolve-from-here.js"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { CallToolResultSchema, CreateTaskResultSchema, McpError } = require("@modelcontextprotocol/sdk/types.js");

// A hang guard only: nothing here waits this long unless the server is broken.
const PATIENCE_MS = 20_000;

/** A client connected to the server of `run`. */
async function connect(run, options = {}) {
  const client = new Client(
    { name: "tool-core-sdk-test", version: "1.0.0" },
    { capabilities: { tasks: { list: {}, cancel: {} } } },
  );
  const transport =
    run.transport === "stdio"
      ? new StdioClientTransport({ command: run.target, stderr: "inherit" })
      : new StreamableHTTPClientTransport(new URL(run.target), options);
  // The version the handshake agreed on, which the SDK hands the
  // transport (HTTP sends it in a header) and keeps nowhere else.
  const setProtocolVersion = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (version) => {
    client.negotiatedProtocolVersion = version;
    setProtocolVersion?.(version);
  };
  await client.connect(transport);
  return client;
}

function texts(result) {
  return result.content.filter((block) => block.type === "text").map((block) => block.text);
}

function errorOf(error) {
  return error instanceof McpError ? { code: error.code, message: error.message } : { error: String(error) };
}

/** Polls tasks/get until the task is no longer working. */
async function untilSettled(client, taskId) {
  const deadline = Date.now() + PATIENCE_MS;
  let task = await client.experimental.tasks.getTask(taskId);
  while ((task.status === "working" || task.status === "input_required") && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    task = await client.experimental.tasks.getTask(taskId);
  }
  return task;
}

/** Starts `render_video` as a task, as a client asks with params.task. */
async function startRender(client, args) {
  const created = await client.request(
    { method: "tools/call", params: { name: "render_video", arguments: args } },
    CreateTaskResultSchema,
    { task: { ttl: 60_000 } },
  );
  return created.task;
}

async function initialize(client) {
  const capabilities = client.getServerCapabilities();
  return {
    protocolVersion: client.negotiatedProtocolVersion ?? null,
    server: client.getServerVersion(),
    tools: capabilities.tools ?? null,
    tasksToolsCall: capabilities.tasks?.requests?.tools?.call !== undefined,
  };
}

async function toolsList(client) {
  const listed = await client.listTools();
  return {
    tools: listed.tools.map((tool) => ({
      name: tool.name,
      inputSchema: tool.inputSchema,
      taskSupport: tool.execution?.taskSupport ?? null,
    })),
    nextCursor: listed.nextCursor ?? null,
  };
}

async function plainCall(client) {
  const result = await client.callTool({ name: "get_weather", arguments: { city: "Paris" } });
  return { isError: result.isError ?? false, text: texts(result) };
}

async function badArguments(client) {
  const result = await client.callTool({ name: "web_search", arguments: { query: 3 } });
  return { isError: result.isError ?? false, text: texts(result) };
}

async function taskCall(client) {
  const created = await startRender(client, { name: "intro.mp4", scenes: 3 });
  const settled = await untilSettled(client, created.taskId);
  const result = await client.experimental.tasks.getTaskResult(created.taskId, CallToolResultSchema);
  return {
    created: { status: created.status, ttl: created.ttl, pollInterval: created.pollInterval },
    settled: settled.status,
    result: { isError: result.isError ?? false, text: texts(result) },
    relatedTask: result._meta?.["io.modelcontextprotocol/related-task"]?.taskId === created.taskId,
  };
}

async function callToolStream(client) {
  const stream = client.experimental.tasks.callToolStream(
    { name: "render_video", arguments: { name: "outro.mp4", scenes: 2 } },
    CallToolResultSchema,
    { task: { ttl: 60_000 } },
  );
  // The kinds of message in order, repeats (one taskStatus a poll) once.
  const kinds = [];
  let last = null;
  for await (const message of stream) {
    if (kinds[kinds.length - 1] !== message.type) kinds.push(message.type);
    last = message;
  }
  const outcome =
    last.type === "result"
      ? { isError: last.result.isError ?? false, text: texts(last.result) }
      : errorOf(last.error);
  return { kinds, outcome };
}

async function tasksCancel(client) {
  const created = await startRender(client, { name: "feature.mp4", scenes: 1000 });
  const cancelled = await client.experimental.tasks.cancelTask(created.taskId);
  const settled = await client.experimental.tasks.getTask(created.taskId);
  let again;
  try {
    await client.experimental.tasks.cancelTask(created.taskId);
    again = "cancelled twice";
  } catch (error) {
    again = errorOf(error);
  }
  const listed = await client.experimental.tasks.listTasks();
  const inList = listed.tasks.find((task) => task.taskId === created.taskId);
  return {
    cancelStatus: cancelled.status,
    settled: settled.status,
    cancelAgain: again.message?.replace(created.taskId, "TASK") ?? again,
    listedAs: inList?.status ?? null,
  };
}

// The cases, in the order they run. See the top of the file to add one.
const CASES = [
  ["initialize", initialize],
  ["tools_list", toolsList],
  ["plain_call", plainCall],
  ["bad_arguments", badArguments],
  ["task_call", taskCall],
  ["call_tool_stream", callToolStream],
  ["tasks_cancel", tasksCancel],
];

async function main(argv) {
  const [transport, target] = argv;
  if (argv.length !== 2 || !["stdio", "http"].includes(transport)) {
    console.error("usage: node mcp_client.mjs stdio PATH_TO_MCP_SERVER | http URL");
    process.exit(2);
  }
  const run = { transport, target, connect };
  const client = await connect(run);
  for (const [name, exercise] of CASES) {
    let seen;
    let timer;
    try {
      seen = await Promise.race([
        exercise(client, run),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer in ${PATIENCE_MS} ms`)), PATIENCE_MS);
        }),
      ]);
    } catch (error) {
      seen = { error: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
    }
    process.stdout.write(`${name}\t${JSON.stringify(seen)}\n`);
  }
  await client.close();
}

await main(process.argv.slice(2));
