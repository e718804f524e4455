// A real language model behind an OpenAI-compatible Chat Completions
// endpoint on loopback, for tests/real_model.rs: node-llama-cpp runs a GGUF
// model on the CPU and this file speaks `POST /v1/chat/completions`, whole
// and streamed (`"stream": true`, server-sent events as OpenAI sends them).
//
//   node server.mjs --model PATH --packages DIR [--port 0] [--threads 2] [--max-tokens 256]
//
// DIR holds the `node_modules` of this folder's package.json (scripts/test
// installs them in target/real-model).
//
// It prints `listening on http://127.0.0.1:PORT/v1` once the model is loaded.
//
// Small models write calls as text, often in a code block, rather than in
// their chat template's syntax; so every turn is sampled under a grammar
// made from the request's tools: the model writes either
// `{"tool_calls": [{"name": ..., "arguments": {...}}, ...]}`, each name one
// of the tools and its arguments of the types the tool's schema says, or
// `{"answer": "..."}`. What a grammar cannot hold (patterns, ranges) is
// left to the tools' own validation, whose errors the model reads back.
// Requests are served one at a time: the model has one context.

import http from "node:http";
import {createRequire} from "node:module";
import path from "node:path";
import {pathToFileURL} from "node:url";

const options = {model: "", packages: "", port: "0", threads: "2", "max-tokens": "256", context: "4096"};
for (let at = 2; at < process.argv.length; at += 2) {
    const name = process.argv[at].replace(/^--/, "");
    if (!(name in options) || at + 1 >= process.argv.length) {
        console.error("usage: node server.mjs --model PATH --packages DIR [--port N] [--threads N] [--max-tokens N]");
        process.exit(2);
    }
    options[name] = process.argv[at + 1];
}

// node-llama-cpp from the folder `scripts/test` installed it in (its
// `node_modules`), which is not beside this file.
const packages = path.resolve(options.packages, "package.json");
const entry = pathToFileURL(createRequire(packages).resolve("node-llama-cpp"));
const {getLlama, LlamaChat} = await import(entry);
// The JSON schema grammar's generator, for its compact form (no new lines,
// no indentation: fewer tokens, and no run of new lines that would stop
// the turn). node-llama-cpp exports only the indented form.
const {getGbnfGrammarForGbnfJsonSchema} = await import(
    new URL("utils/gbnfJson/getGbnfGrammarForGbnfJsonSchema.js", entry)
);

const llama = await getLlama({gpu: false, build: "never", logLevel: "error"});
const model = await llama.loadModel({modelPath: options.model});
const context = await model.createContext({
    contextSize: Number(options.context),
    threads: Number(options.threads),
});
const sequence = context.getSequence();
const modelName = options.model.split("/").pop();
let calls = 0;

// What the model is told of the tools and of the reply's shape.
function systemPrompt(tools) {
    const listed = tools.map((tool) => {
        const f = tool.function;
        const summary = (f.description ?? "").split("\n")[0];
        return `- ${f.name}: ${summary} Arguments: ${JSON.stringify(f.parameters?.properties ?? {})}`;
    });
    return [
        "You are an assistant that answers with tools. Tools:",
        ...listed,
        "",
        'When a tool can help with the user\'s question, call it: reply {"tool_calls": [{"name": TOOL, "arguments": {...}}]}.',
        'When tool results have answered the question, reply {"answer": "..."} with what they said.',
        "When a tool result is an error, read it: call again with what it asks for, or answer with the error.",
    ].join("\n");
}

// A tool's JSON schema cut to what a grammar holds: types, properties,
// enums, constants and alternatives. The rest is checked by the tool.
function grammarSchema(schema) {
    if (schema === true || schema == null || typeof schema !== "object") {
        return {type: ["string", "number", "boolean", "null"]};
    }
    if ("const" in schema) return {const: schema.const};
    if (Array.isArray(schema.enum)) return {enum: schema.enum};
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(alternatives)) return {oneOf: alternatives.map(grammarSchema)};
    const types = [schema.type].flat().filter((type) => type !== undefined);
    if (types.includes("object") || schema.properties) {
        // The grammar writes every property it lists, so where the schema
        // says which are required (strict schemas list them all), the
        // others are left out: the tool's defaults stand. A schema that
        // lists none has each written.
        const required = schema.required ?? Object.keys(schema.properties ?? {});
        const properties = {};
        for (const [name, property] of Object.entries(schema.properties ?? {})) {
            if (required.includes(name)) properties[name] = grammarSchema(property);
        }
        const object = {type: "object", properties};
        return types.includes("null") ? {oneOf: [object, {type: "null"}]} : object;
    }
    if (types.includes("array")) {
        const array = {type: "array", items: grammarSchema(schema.items), maxItems: 8};
        return types.includes("null") ? {oneOf: [array, {type: "null"}]} : array;
    }
    if (types.length === 0) return {type: ["string", "number", "boolean", "null"]};
    return {type: types.length === 1 ? types[0] : types};
}

// The reply's grammar: calls of the request's tools, or an answer. A
// request whose `model` names `free-names` lets the model call a name of
// its own too (with no arguments), to see what the loop makes of a tool
// that does not exist.
function replySchema(tools, freeNames) {
    // An answer is one short paragraph: a small model may otherwise write
    // until its token limit.
    const answer = {type: "object", properties: {answer: {type: "string", maxLength: 400}}};
    if (tools.length === 0) return answer;
    const known = tools.map((tool) => ({
        type: "object",
        properties: {
            name: {const: tool.function.name},
            arguments: grammarSchema(tool.function.parameters ?? {type: "object"}),
        },
    }));
    const anyName = {
        type: "object",
        properties: {name: {type: "string", maxLength: 32}, arguments: {type: "object", properties: {}}},
    };
    const call = {oneOf: freeNames ? [...known, anyName] : known};
    const calling = {
        type: "object",
        properties: {tool_calls: {type: "array", items: call, minItems: 1, maxItems: 3}},
    };
    return {oneOf: [calling, answer]};
}

// The conversation as the model's chat template takes it. Few small
// templates have a role for tool results, so each becomes a line of a
// user message naming the call it answers; the model's own calls are not
// shown again as its turns, which a small model would copy instead of
// reading the results.
function history(messages, tools) {
    const items = [{type: "system", text: systemPrompt(tools)}];
    const names = new Map();
    let results = [];
    const flush = () => {
        if (results.length > 0) {
            results.push('Reply {"answer": "..."} with these results, or call a tool for what they do not say.');
            items.push({type: "user", text: results.join("\n")});
        }
        results = [];
    };
    for (const message of messages) {
        const text = typeof message.content === "string"
            ? message.content
            : (message.content ?? []).map((part) => part.text ?? "").join("");
        if (message.role === "tool") {
            const call = names.get(message.tool_call_id) ?? message.name ?? "a tool";
            results.push(`The tool ${call} answered: ${text}`);
            continue;
        }
        flush();
        if (message.role === "system" || message.role === "developer") {
            items[0].text += `\n${text}`;
        } else if (message.role === "user") {
            items.push({type: "user", text});
        } else if (message.role === "assistant") {
            const toolCalls = message.tool_calls ?? [];
            for (const call of toolCalls) {
                const args = call.function.arguments;
                names.set(call.id, `${call.function.name}(${typeof args === "string" ? args : JSON.stringify(args)})`);
            }
            if (toolCalls.length === 0) {
                items.push({type: "model", response: [JSON.stringify({answer: text})]});
            }
        }
    }
    flush();
    return items;
}

function parseOr(text, fallback) {
    try {
        return typeof text === "string" ? JSON.parse(text) : text;
    } catch {
        return fallback;
    }
}

// What the reply written so far says: the answer's text decoded so far, or
// each call's name and the text of its arguments so far. The grammar fixes
// the order of the keys, so a prefix is read without a full parser.
function partialReply(text) {
    const answer = /^\s*\{\s*"answer"\s*:\s*"/.exec(text);
    if (answer) return {answer: partialString(text, answer[0].length).value, calls: []};
    const calls = [];
    const name = /\{\s*"name"\s*:\s*"((?:[^"\\]|\\.)*)"\s*,\s*"arguments"\s*:\s*/g;
    let match;
    while ((match = name.exec(text)) !== null) {
        const start = match.index + match[0].length;
        const end = valueEnd(text, start);
        calls.push({name: JSON.parse(`"${match[1]}"`), arguments: text.slice(start, end), whole: end < text.length || complete(text, start)});
        name.lastIndex = end;
    }
    return {answer: null, calls};
}

// The decoded characters of a JSON string from `start` (after its opening
// quote), stopping before an escape not yet whole.
function partialString(text, start) {
    let value = "";
    for (let at = start; at < text.length; at++) {
        const char = text[at];
        if (char === '"') return {value, end: at + 1};
        if (char !== "\\") {
            value += char;
            continue;
        }
        const length = text[at + 1] === "u" ? 6 : 2;
        if (at + length > text.length) break;
        value += JSON.parse(`"${text.slice(at, at + length)}"`);
        at += length - 1;
    }
    return {value, end: null};
}

// Where the JSON value starting at `start` ends (or the text's end).
function valueEnd(text, start) {
    let depth = 0;
    let inString = false;
    for (let at = start; at < text.length; at++) {
        const char = text[at];
        if (inString) {
            if (char === "\\") at++;
            else if (char === '"') inString = false;
        } else if (char === '"') inString = true;
        else if (char === "{" || char === "[") depth++;
        else if (char === "}" || char === "]") {
            depth--;
            if (depth === 0) return at + 1;
        } else if (depth === 0 && (char === "," || /\s/.test(char)) && at > start) return at;
    }
    return text.length;
}

function complete(text, start) {
    return parseOr(text.slice(start), undefined) !== undefined;
}

// Runs one turn; `onDelta` sees the reply as it is written.
async function turn(body, onDelta) {
    const tools = (body.tools ?? []).filter((tool) => tool.type === "function");
    const grammar = await llama.createGrammar({
        // The generator ends the root in new lines, for a stop trigger; ended
        // at the reply's last brace, the grammar leaves the model only its
        // end-of-turn token there.
        grammar: getGbnfGrammarForGbnfJsonSchema(
            replySchema(tools, String(body.model ?? "").includes("free-names")),
            {allowNewLines: false, scopePadSpaces: 0}
        )
            .replace(/^(root ::= .*?) "\\n\\n\\n\\n" \[\\n\]\*$/m, "$1"),
        trimWhitespaceSuffix: true,
    });
    sequence.clearHistory();
    const chat = new LlamaChat({contextSequence: sequence, autoDisposeSequence: false});
    let text = "";
    let tokens = 0;
    const started = Date.now();
    const response = await chat.generateResponse(history(body.messages ?? [], tools), {
        grammar,
        maxTokens: Number(body.max_tokens ?? body.max_completion_tokens ?? options["max-tokens"]),
        temperature: Number(body.temperature ?? 0),
        seed: body.seed ?? 1,
        onTextChunk(chunk) {
            text += chunk;
            onDelta(partialReply(text));
        },
        onToken(chunk) {
            tokens += chunk.length;
        },
    });
    chat.dispose();
    const seconds = (Date.now() - started) / 1000;
    console.error(`turn (${response.metadata?.stopReason}): ${tokens} tokens in ${seconds.toFixed(1)} s (${(tokens / seconds).toFixed(2)} tokens/s): ${response.response}`);
    const stopped = response.metadata?.stopReason === "maxTokens" ? "length" : null;
    return {reply: partialReply(response.response), tokens, stopped};
}

function callId() {
    calls += 1;
    return `call_${String(calls).padStart(6, "0")}`;
}

function completion(reply, tokens, stopped) {
    const ids = reply.calls.filter((call) => call.whole).map(() => callId());
    const toolCalls = reply.calls.filter((call) => call.whole).map((call, at) => ({
        id: ids[at],
        type: "function",
        function: {name: call.name, arguments: call.arguments},
    }));
    const message = {role: "assistant", content: reply.answer};
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    return {
        id: `chatcmpl-${Date.now()}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: modelName,
        choices: [{index: 0, message, finish_reason: stopped ?? (toolCalls.length > 0 ? "tool_calls" : "stop")}],
        usage: {completion_tokens: tokens},
    };
}

// Streams one turn as Chat Completions does: the answer's text as it is
// written, each call's name once whole and its arguments in pieces.
async function streamed(body, response) {
    const id = `chatcmpl-${Date.now()}`;
    const created = Math.floor(Date.now() / 1000);
    const send = (delta, finish = null) => {
        const chunk = {id, object: "chat.completion.chunk", created, model: modelName,
            choices: [{index: 0, delta, finish_reason: finish}]};
        response.write(`data: ${JSON.stringify(chunk)}\n\n`);
    };
    response.writeHead(200, {"content-type": "text/event-stream", "cache-control": "no-cache"});
    send({role: "assistant", content: ""});
    let sentText = 0;
    const sentCalls = [];
    const onDelta = (reply) => {
        if (reply.answer !== null && reply.answer.length > sentText) {
            send({content: reply.answer.slice(sentText)});
            sentText = reply.answer.length;
        }
        reply.calls.forEach((call, index) => {
            if (sentCalls[index] === undefined) {
                sentCalls[index] = 0;
                send({tool_calls: [{index, id: callId(), type: "function", function: {name: call.name, arguments: ""}}]});
            }
            if (call.arguments.length > sentCalls[index]) {
                send({tool_calls: [{index, function: {arguments: call.arguments.slice(sentCalls[index])}}]});
                sentCalls[index] = call.arguments.length;
            }
        });
    };
    const {reply, stopped} = await turn(body, onDelta);
    onDelta(reply);
    send({}, stopped ?? (sentCalls.length > 0 ? "tool_calls" : "stop"));
    response.end("data: [DONE]\n\n");
}

let queue = Promise.resolve();

const server = http.createServer((request, response) => {
    const fail = (status, message) => {
        if (!response.headersSent) response.writeHead(status, {"content-type": "application/json"});
        response.end(JSON.stringify({error: {message, type: "invalid_request_error"}}));
    };
    if (request.method !== "POST" || !request.url.endsWith("/chat/completions")) {
        return fail(404, `no route for ${request.method} ${request.url}`);
    }
    let raw = "";
    request.setEncoding("utf8");
    request.on("data", (chunk) => { raw += chunk; });
    request.on("end", () => {
        const body = parseOr(raw, undefined);
        if (body === undefined || !Array.isArray(body.messages)) {
            return fail(400, "the body must be JSON with `messages`");
        }
        queue = queue.then(async () => {
            try {
                if (body.stream) {
                    await streamed(body, response);
                } else {
                    const {reply, tokens, stopped} = await turn(body, () => {});
                    response.writeHead(200, {"content-type": "application/json"});
                    response.end(JSON.stringify(completion(reply, tokens, stopped)));
                }
            } catch (error) {
                fail(500, String(error?.stack ?? error));
            }
        });
    });
});

server.listen(Number(options.port), "127.0.0.1", () => {
    console.log(`listening on http://127.0.0.1:${server.address().port}/v1`);
});
