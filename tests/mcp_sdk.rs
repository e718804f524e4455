//! The example MCP server (`examples/mcp_server.rs`) held to the official
//! MCP Python SDK as its client (`tests/sdk/mcp_client.py`), over stdio and
//! over streamable HTTP, each with the SDK's two ways of connecting: the
//! initialize handshake (protocol 2025-11-25) and `server/discover`
//! (2026-07-28). What the SDK reads must be exactly what the registry
//! says: the tool list, results and argument errors, an unknown tool's
//! protocol error, structured content (which the SDK checks against the
//! output schema), an image, progress reaching the call's progress
//! callback, a call the SDK cancels stopping the tool (which then counts
//! it), and, on the 2026 connection, a `long_running` call answered as a
//! task that the SDK's claim for the tasks extension follows with
//! `tasks/get` to its result, and another that `tasks/cancel` cancels.
//!
//! The SDK is the pinned `mcp` of `tests/sdk/requirements.txt`, which
//! `.ci/run` installs and names in `TOOL_SDK_PYTHON`; without that variable
//! (a plain `cargo test`) the tests say on stderr that they were skipped.
//! The server is the example's binary, which `cargo test` builds beside the
//! tests.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};
use tool_core::provider::{Provider, call_tool_result};

#[path = "support/example_server.rs"]
mod example_server;
#[path = "../examples/quickstart.rs"]
#[allow(dead_code)]
mod quickstart;
#[path = "support/sdk_python.rs"]
mod sdk_python;
#[path = "../examples/mcp_server/tools.rs"]
mod tools;

use example_server::example_server;
use sdk_python::PYTHON;

/// The interpreter of the SDK, or `None` (said on stderr) without one.
fn sdk_python(test: &str) -> Option<std::path::PathBuf> {
    sdk_python::sdk_python(
        test,
        "the MCP Python SDK is not run against the example server",
    )
}

/// What the SDK saw, as the script reports it.
fn run_client(python: &Path, transport: &str, target: &str) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sdk/mcp_client.py");
    let output = Command::new(python)
        .arg(&script)
        .arg(transport)
        .arg(target)
        .output()
        .unwrap_or_else(|error| panic!("{PYTHON}={}: cannot run: {error}", python.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the MCP client failed ({}):\n{stderr}{stdout}",
        output.status
    );
    serde_json::from_str(&stdout).unwrap_or_else(|error| panic!("{error}: {stdout}"))
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
    let definitions = Provider::Mcp
        .definitions(&registry)
        .expect("MCP takes the example's tools");
    let tools: Vec<Value> = definitions
        .tools()
        .as_array()
        .expect("a list")
        .iter()
        .map(|tool| {
            json!({
                "name": tool["name"],
                "inputSchema": tool["inputSchema"],
                "outputSchema": tool.get("outputSchema").cloned().unwrap_or(Value::Null),
            })
        })
        .collect();
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
        json!({"total": 720, "best_month": 2})
    );
    let png = &chart["content"][1]["data"];
    assert!(png.is_string(), "the chart is an image block: {chart}");
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
                `watch_folder`, `stopped_watches`, `render_video`."
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
            "followed": if modern {
                json!([{
                    "tool": "render_video",
                    "created_status": "working",
                    "has_task_id": true,
                    "settled_status": "completed",
                }])
            } else {
                json!([])
            },
        },
        "task_cancel": if modern {
            json!({"created_status": "working", "settled_status": "cancelled"})
        } else {
            Value::Null
        },
    })
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
    let Some(python) = sdk_python("the_python_sdk_over_stdio_reads_what_the_registry_says") else {
        return;
    };
    let server = example_server();
    let report = run_client(&python, "stdio", &server.to_string_lossy());
    assert_reads(&report, &expected().await, "stdio");
}

#[tokio::test]
async fn the_python_sdk_over_http_reads_what_the_registry_says() {
    let Some(python) = sdk_python("the_python_sdk_over_http_reads_what_the_registry_says") else {
        return;
    };
    let (server, url) = example_server::serve_http(&[]);
    let report = run_client(&python, "http", &url);
    drop(server);
    assert_reads(&report, &expected().await, "HTTP");
}
