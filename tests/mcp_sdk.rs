//! The example MCP server (`examples/mcp_server.rs`) held to the official
//! MCP SDKs as its clients, over stdio and over streamable HTTP: the
//! TypeScript SDK (`tests/sdk/node/mcp_client.mjs`, protocol 2025-11-25
//! and its tasks: `params.task`, `tasks/get`, `tasks/result`,
//! `callToolStream`, `tasks/cancel`), and the Python SDK
//! (`tests/sdk/mcp_client.py`), with its two ways of connecting: the
//! initialize handshake (protocol 2025-11-25) and `server/discover`
//! (2026-07-28). What the SDK reads must be exactly what the registry
//! says: the tool list, results and argument errors, an unknown tool's
//! protocol error, structured content (which the SDK checks against the
//! output schema), an image, progress reaching the call's progress
//! callback, a call the SDK cancels stopping the tool (which then counts
//! it), and, on the 2026 connection, a `long_running` call answered as a
//! task that the SDK's claim for the tasks extension follows with
//! `tasks/get` to its result, and another that `tasks/cancel` cancels;
//! and the Python SDK's elicitation callback answering the question a tool
//! asks (`tests/sdk/elicit_client.py`), in a session and on the SDK's
//! defaults (2026-07-28, where each question is an `input_required`
//! round), and approving a `Confirm` tool's call; the TypeScript SDK's v2
//! client (`tests/sdk/node/elicit_client.mjs`) doing the same over stdio
//! and over HTTP, on its defaults (2025-11-25) and on 2026-07-28.
//!
//! The SDKs are pinned: the Python SDK in `tests/sdk/requirements.txt`,
//! the TypeScript SDK in `tests/sdk/node/package-lock.json`; `scripts/test`
//! installs them and names them in `TOOL_SDK_PYTHON` and
//! `TOOL_SDK_NODE_MODULES`. Without those variables (a plain `cargo test`)
//! the tests fail, saying to run `scripts/test`. The server is the
//! example's binary, which `cargo test` builds beside the tests.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::Path;

use serde_json::{Value, json};
use tool_core::provider::Provider;
use tool_core::provider::mcp::call_tool_result;
use tool_core::toolset::Select;
use tool_core::{ToolContext, ToolRegistry};

#[path = "support/example_server.rs"]
mod example_server;
#[path = "../examples/quickstart.rs"]
#[allow(dead_code)]
mod quickstart;
#[path = "support/sdk_node.rs"]
mod sdk_node;
#[path = "support/sdk_python.rs"]
mod sdk_python;
#[path = "../examples/mcp_server/tools.rs"]
mod tools;

use example_server::example_server;
use sdk_python::run_report;

/// The interpreter of the SDK.
fn sdk_python(test: &str) -> std::path::PathBuf {
    sdk_python::sdk_python(
        test,
        "running the MCP Python SDK against the example server",
    )
}

/// What the SDK saw, as the script reports it.
fn run_client(python: &Path, transport: &str, target: &str) -> Value {
    run_report(
        python,
        "mcp_client.py",
        &[OsStr::new(transport), OsStr::new(target)],
    )
}

/// What the SDK must see on each connection: the registry's MCP
/// definitions and results, and the protocol version each way of
/// connecting negotiates.
async fn expected() -> Value {
    json!({
        "legacy": expected_on("2025-11-25").await,
        "auto": expected_on("2026-07-28").await,
    })
}

/// What the SDK must see on a connection of `protocol_version`: only on a
/// modern (2026) one does it declare the tasks extension, and so get a
/// task for a `long_running` call.
async fn expected_on(protocol_version: &str) -> Value {
    let modern = protocol_version == "2026-07-28";
    let registry = tools::registry();
    let ctx = quickstart::context();
    let tools = listed_tools(&registry, &ctx);
    let valid = registry
        .call(&ctx, "get_weather", json!({"city": "Paris"}))
        .await;
    let summary = call_tool_result(
        &registry
            .call(&ctx, "sales_summary", json!({"months": [120, 340, 260]}))
            .await,
    );
    let chart = call_tool_result(
        &registry
            .call(
                &ctx,
                "sales_chart",
                json!({"title": "Q1 sales", "months": [120, 340, 260]}),
            )
            .await,
    );
    assert_eq!(
        summary["structuredContent"],
        json!({"total": 720, "best_month": 2, "worst_drop_after": 2})
    );
    let png = &chart["content"][1]["data"];
    assert!(png.is_string(), "the chart is an image block: {chart}");
    let (followed, task_cancel) = expected_tasks(modern);
    json!({
        "protocol_version": protocol_version,
        "server": {
            "name": "quickstart",
            "version": env!("CARGO_PKG_VERSION"),
            "tools_capability": true,
            "tasks_extension": true,
        },
        "tools": tools,
        "next_cursor": null,
        "valid": {"isError": false, "text": [valid.model_text()]},
        "empty_arguments": {"isError": true, "text": [
            "invalid arguments for tool `web_search`: missing argument `query`. Correct the arguments and call the tool again."
        ]},
        "wrong_type": {"isError": true, "text": [
            "invalid arguments for tool `web_search`: argument `query` at `/query`: expected a string, got an integer `3`. Correct the arguments and call the tool again."
        ]},
        "unknown_tool": {
            "code": -32602,
            "message": "unknown tool `no_such_tool`. Available tools: `get_weather`, `web_search`, \
                `convert_currency`, `sales_summary`, `sales_chart`, `index_documents`, \
                `watch_folder`, `stopped_watches`, `render_video`, `book_room`."
        },
        "structured": {
            "isError": false,
            "structuredContent": summary["structuredContent"],
            "text": [summary["content"][0]["text"]],
        },
        "image": {"isError": false, "content": [
            {"type": "text", "text": "Q1 sales: 3 months."},
            {"type": "image", "mimeType": "image/png", "data": png},
        ]},
        "progress": {
            "isError": false,
            "text": ["indexed 3 documents"],
            "heard": [
                {"progress": 1.0, "total": 3.0, "message": "a.md"},
                {"progress": 2.0, "total": 3.0, "message": "b.md"},
                {"progress": 3.0, "total": 3.0, "message": "c.md"},
            ],
        },
        "cancellation": {"progress_heard": ["watching /srv/inbox"], "stopped": 1},
        "task": {
            "isError": false,
            "text": ["rendered intro.mp4: 3 scenes"],
            "followed": followed,
        },
        "task_cancel": task_cancel,
    })
}

/// The tools the server's context may call, as the SDK reads them: only
/// those are listed to it.
fn listed_tools<Ctx: Send + Sync + 'static>(
    registry: &ToolRegistry<Ctx>,
    ctx: &ToolContext<Ctx>,
) -> Vec<Value> {
    let definitions = Provider::Mcp
        .definitions(registry)
        .expect("MCP takes the example's tools");
    definitions
        .as_json()
        .as_array()
        .expect("a list")
        .iter()
        .filter(|tool| {
            let name = tool["name"].as_str().unwrap_or_default();
            registry
                .view(Select::all().names([name]).caller(ctx))
                .contains(name)
        })
        .map(|tool| {
            json!({
                "name": tool["name"],
                "inputSchema": tool["inputSchema"],
                "outputSchema": tool.get("outputSchema").cloned().unwrap_or(Value::Null),
            })
        })
        .collect()
}

/// The task the SDK follows and the one it cancels: only a modern
/// connection gets tasks.
fn expected_tasks(modern: bool) -> (Value, Value) {
    if modern {
        (
            json!([{
                "tool": "render_video",
                "created_status": "working",
                "has_task_id": true,
                "settled_status": "completed",
            }]),
            json!({"created_status": "working", "settled_status": "cancelled"}),
        )
    } else {
        (json!([]), Value::Null)
    }
}

/// The report is what was expected, compared case by case so that a
/// failure names the connection and the case.
fn assert_reads(report: &Value, expected: &Value, transport: &str) {
    // Each connection's cases, sorted.
    let cases = |value: &Value| -> BTreeMap<String, Vec<String>> {
        let modes = value.as_object().expect("connections");
        modes
            .iter()
            .map(|(mode, cases)| {
                let mut names: Vec<String> =
                    cases.as_object().expect("cases").keys().cloned().collect();
                names.sort();
                (mode.clone(), names)
            })
            .collect()
    };
    assert_eq!(
        cases(report),
        cases(expected),
        "over {transport}: the cases"
    );
    for (mode, cases) in expected.as_object().expect("connections") {
        for name in cases.as_object().expect("cases").keys() {
            assert_eq!(
                report[mode][name], expected[mode][name],
                "over {transport}, connecting `{mode}`: {name}"
            );
        }
    }
}

#[tokio::test]
async fn the_python_sdk_over_stdio_reads_what_the_registry_says() {
    let python = sdk_python("the_python_sdk_over_stdio_reads_what_the_registry_says");
    let server = example_server();
    let report = run_client(&python, "stdio", &server.to_string_lossy());
    assert_reads(&report, &expected().await, "stdio");
}

#[tokio::test]
async fn the_python_sdk_over_http_reads_what_the_registry_says() {
    let python = sdk_python("the_python_sdk_over_http_reads_what_the_registry_says");
    let (server, url) = example_server::serve_http(&[]);
    let report = run_client(&python, "http", &url);
    drop(server);
    assert_reads(&report, &expected().await, "HTTP");
}

/// What the TypeScript SDK must see, case by case (`tests/sdk/node/mcp_client.mjs`
/// prints one line a case): the registry's definitions and results, and a
/// `long_running` call made a task in 2025-11-25's form, followed with
/// `tasks/get` to its `tasks/result`, by `callToolStream`, and cancelled
/// with `tasks/cancel`.
async fn expected_node() -> Vec<(&'static str, Value)> {
    let registry = tools::registry();
    let ctx = quickstart::context();
    let definitions = Provider::Mcp
        .definitions(&registry)
        .expect("MCP takes the example's tools");
    let tools: Vec<Value> = definitions
        .as_json()
        .as_array()
        .expect("a list")
        .iter()
        // Only the tools the server's context may call are listed to it.
        .filter(|tool| {
            let name = tool["name"].as_str().unwrap_or_default();
            registry
                .view(Select::all().names([name]).caller(&ctx))
                .contains(name)
        })
        .map(|tool| {
            let name = tool["name"].as_str().expect("a name");
            let long_running = registry
                .info(name)
                .is_some_and(|info| info.metadata.long_running);
            json!({
                "name": name,
                "inputSchema": tool["inputSchema"],
                "taskSupport": if long_running { json!("optional") } else { Value::Null },
            })
        })
        .collect();
    let valid = registry
        .call(&ctx, "get_weather", json!({"city": "Paris"}))
        .await;
    vec![
        (
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "server": {"name": "quickstart", "version": env!("CARGO_PKG_VERSION")},
                "tools": {"listChanged": true},
                "tasksToolsCall": true,
            }),
        ),
        ("tools_list", json!({"tools": tools, "nextCursor": null})),
        (
            "plain_call",
            json!({"isError": false, "text": [valid.model_text()]}),
        ),
        (
            "bad_arguments",
            json!({"isError": true, "text": [
                "invalid arguments for tool `web_search`: argument `query` at `/query`: expected a \
                 string, got an integer `3`. Correct the arguments and call the tool again."
            ]}),
        ),
        (
            "task_call",
            json!({
                "created": {"status": "working", "ttl": 60000, "pollInterval": 1000},
                "settled": "completed",
                "result": {"isError": false, "text": ["rendered intro.mp4: 3 scenes"]},
                "relatedTask": true,
            }),
        ),
        (
            "call_tool_stream",
            json!({
                "kinds": ["taskCreated", "taskStatus", "result"],
                "outcome": {"isError": false, "text": ["rendered outro.mp4: 2 scenes"]},
            }),
        ),
        (
            "tasks_cancel",
            json!({
                "cancelStatus": "cancelled",
                "settled": "cancelled",
                "cancelAgain": "MCP error -32602: task TASK cannot be cancelled: it is already \
                    cancelled",
                "listedAs": "cancelled",
            }),
        ),
    ]
}

/// The script's lines are the expected cases, in order, each with what was
/// expected: a failure names the transport and the case.
fn assert_node_reads(stdout: &str, expected: &[(&str, Value)], transport: &str) {
    let seen: Vec<(&str, Value)> = stdout
        .lines()
        .map(|line| {
            let (name, json) = line
                .split_once('\t')
                .unwrap_or_else(|| panic!("over {transport}: not a case line: {line}"));
            let value = serde_json::from_str(json)
                .unwrap_or_else(|error| panic!("over {transport}: {name}: {error}: {json}"));
            (name, value)
        })
        .collect();
    let names = |cases: &[(&str, Value)]| {
        cases
            .iter()
            .map(|(name, _)| name.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&seen), names(expected), "over {transport}: the cases");
    for ((name, seen), (_, expected)) in seen.iter().zip(expected) {
        assert_eq!(seen, expected, "over {transport}: {name}");
    }
}

#[tokio::test]
async fn the_typescript_sdk_over_stdio_reads_what_the_registry_says() {
    let modules = sdk_node::sdk_node_modules(
        "the_typescript_sdk_over_stdio_reads_what_the_registry_says",
        "running the MCP TypeScript SDK against the example server",
    );
    let server = example_server();
    let stdout = sdk_node::run_node(
        &modules,
        "mcp_client.mjs",
        &["stdio", &server.to_string_lossy()],
    );
    assert_node_reads(&stdout, &expected_node().await, "stdio");
}

#[tokio::test]
async fn the_typescript_sdk_over_http_reads_what_the_registry_says() {
    let modules = sdk_node::sdk_node_modules(
        "the_typescript_sdk_over_http_reads_what_the_registry_says",
        "running the MCP TypeScript SDK against the example server",
    );
    let (server, url) = example_server::serve_http(&[]);
    let stdout = sdk_node::run_node(&modules, "mcp_client.mjs", &["http", &url]);
    drop(server);
    assert_node_reads(&stdout, &expected_node().await, "HTTP");
}

/// The Python SDK plays the person a tool asks (`book_room`, `#[tool(asks)]`):
/// its elicitation callback is asked the question, in form mode, with the
/// answer type's schema, and its accept and decline reach the tool; a
/// connection without the callback declares no elicitation, and the tool
/// says it could not ask.
#[tokio::test]
async fn the_python_sdk_answers_the_question_a_tool_asks() {
    let python = sdk_python("the_python_sdk_answers_the_question_a_tool_asks");
    let server = example_server();
    let report = run_report(&python, "elicit_client.py", &[server.as_os_str()]);
    use tool_core::elicit::Elicit;
    let schema = tools::Booking::requested_schema().expect("a flat question");
    let question = json!({
        "mode": "form",
        "message": "Which room on 2026-12-01?",
        "requestedSchema": *schema,
    });
    let (asked, results) = asked_and_answered();
    assert_eq!(
        report,
        json!({
            "answered": {
                "asked": [question, question],
                "results": [
                    {"isError": false, "text": ["booked a double room on 2026-12-01, with breakfast"]},
                    {"isError": false, "text": ["the guest declined to book; do not ask again"]},
                ],
            },
            "no_elicitation": {
                "isError": true,
                "text": ["the person could not be asked: the MCP client does not take elicitation \
                          (it declared no `elicitation` form capability)"],
            },
            // On the SDK's defaults, 2026-07-28: no session, and each
            // question an `input_required` round the SDK answers.
            "defaults": {"protocol": "2026-07-28", "asked": asked, "results": results},
        })
    );
}

/// The questions a client playing the person is asked, and the results it
/// gets, calling `book_room` for 2026-12-02 (choosing a single room without
/// breakfast, then declining) and then `convert_currency`, of tier
/// `Confirm`, for 10 EUR in USD (approving, then declining).
fn asked_and_answered() -> (Value, Value) {
    use tool_core::elicit::Elicit;
    let schema = tools::Booking::requested_schema().expect("a flat question");
    let night_2 = json!({
        "mode": "form",
        "message": "Which room on 2026-12-02?",
        "requestedSchema": *schema,
    });
    let approval = json!({
        "mode": "form",
        "message": "Allow the tool `convert_currency` to run with these arguments?\n{\n  \"amount\": 10,\n  \"from\": \"EUR\",\n  \"to\": \"USD\"\n}",
        "requestedSchema": {"type": "object", "properties": {}},
    });
    (
        json!([night_2, night_2, approval.clone(), approval]),
        json!([
            {"isError": false, "text": ["booked a single room on 2026-12-02, without breakfast"]},
            {"isError": false, "text": ["the guest declined to book; do not ask again"]},
            {"isError": false, "text": ["10 EUR = 10.80 USD"]},
            {"isError": true, "text": ["the call to tool `convert_currency` was denied: \
                                        the person at the client declined it"]},
        ]),
    )
}

/// The TypeScript SDK's v2 client plays the same person
/// (`tests/sdk/node/elicit_client.mjs`) over `transport` to `target`: on
/// its defaults (protocol 2025-11-25, where the server asks with
/// `elicitation/create` requests) and with its negotiation on (`auto`:
/// 2026-07-28, where each question is an `input_required` round the client
/// answers through the same handler), it is asked the same questions and
/// gets the same results.
fn assert_typescript_sdk_answers(test: &str, transport: &str, target: &str) {
    let modules = sdk_node::sdk_node_modules(
        test,
        "running the MCP TypeScript SDK's client against the example server",
    );
    let stdout = sdk_node::run_node(&modules, "elicit_client.mjs", &[transport, target]);
    let report: Value =
        serde_json::from_str(&stdout).unwrap_or_else(|error| panic!("{error}: {stdout}"));
    let (asked, results) = asked_and_answered();
    assert_eq!(
        report,
        json!({
            "legacy": {"protocol": "2025-11-25", "asked": asked, "results": results},
            "auto": {"protocol": "2026-07-28", "asked": asked, "results": results},
        }),
        "over {transport}"
    );
}

#[test]
fn the_typescript_sdk_over_stdio_answers_the_question_a_tool_asks() {
    let server = example_server();
    assert_typescript_sdk_answers(
        "the_typescript_sdk_over_stdio_answers_the_question_a_tool_asks",
        "stdio",
        &server.to_string_lossy(),
    );
}

#[test]
fn the_typescript_sdk_over_http_answers_the_question_a_tool_asks() {
    let (server, url) = example_server::serve_http(&[]);
    assert_typescript_sdk_answers(
        "the_typescript_sdk_over_http_answers_the_question_a_tool_asks",
        "http",
        &url,
    );
    drop(server);
}
