//! Mounting an MCP server's tools in a registry: a tool-mcp server over
//! streamable HTTP, its tools called through the registry like local ones,
//! every kind of result coming through, and its list changes followed.

use std::time::Duration;

use serde::Serialize;
use serde_json::json;
use support::serve_http;
use tool_core::output::{Image, Link, Part};
use tool_core::toolset::{Compose, RegistryHandle};
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};
use tool_mcp::McpServer;
use tool_mcp::mount::{Mount, MountError, Refused, Restart};

mod support;

/// Add two numbers.
#[tool(read_only)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// The weather in a city.
#[derive(Serialize, schemars::JsonSchema)]
struct Forecast {
    city: String,
    degrees: i64,
}

/// Get the weather.
#[tool(read_only, output_schema)]
fn weather(city: String) -> Forecast {
    Forecast { city, degrees: 21 }
}

/// Draw a chart.
#[tool(read_only, title = "Chart")]
fn chart() -> ToolResult {
    ToolResult::parts([
        Part::from("The chart:"),
        Image::png(vec![1, 2, 3]).into(),
        Link::new("file:///q3.pdf", "q3.pdf").into(),
    ])
}

/// Fail.
#[tool]
fn fail() -> Result<String, String> {
    Err("the disk is full".into())
}

fn served() -> McpServer {
    McpServer::new(
        ToolRegistry::new()
            .with(Add)
            .with(Weather)
            .with(Chart)
            .with(Fail),
        ToolContext::new(()),
    )
}

async fn call(handle: &RegistryHandle, name: &str, args: serde_json::Value) -> ToolResult {
    handle.call(&ToolContext::new(()), name, args).await
}

#[tokio::test]
async fn a_servers_tools_join_the_registry_and_answer_as_local_ones() {
    let (address, stop) = serve_http(served()).await;
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new().with(Add));
    let mounted = Mount::http("calc", format!("http://{address}/mcp"))
        .compose(Compose::new().prefix("calc_"))
        .mount(&handle)
        .await
        .expect("mounted");
    assert_eq!(
        mounted.tools(),
        ["calc_add", "calc_weather", "calc_chart", "calc_fail"]
    );
    assert_eq!(
        handle.current().names().collect::<Vec<_>>(),
        ["add", "calc_add", "calc_weather", "calc_chart", "calc_fail"]
    );
    // Annotations are metadata.
    let current = handle.current();
    let chart = current.info("calc_chart").unwrap();
    assert!(chart.metadata.read_only);
    assert_eq!(chart.metadata.title.as_deref(), Some("Chart"));
    assert!(!current.info("calc_fail").unwrap().metadata.read_only);

    assert_eq!(
        call(&handle, "calc_add", json!({"a": 2, "b": 3}))
            .await
            .model_text(),
        "5"
    );
    // Checked here first, against the schema the server listed.
    assert_eq!(
        call(&handle, "calc_add", json!({"a": "two", "b": 3}))
            .await
            .model_text(),
        "invalid arguments for tool `calc_add`: argument `a` at `/a`: expected an integer, got a string `two`. Correct the arguments and call the tool again."
    );
    // Structured content, checked against the server's output schema.
    let weather = call(&handle, "calc_weather", json!({"city": "Oslo"})).await;
    assert_eq!(
        weather.structured_content(),
        Some(&json!({"city": "Oslo", "degrees": 21}))
    );
    // Media and links, in each provider's own shape.
    let chart = call(&handle, "calc_chart", json!({})).await;
    assert!(matches!(
        chart.as_parts(),
        Some([Part::Text(_), Part::Media(_), Part::Link(_)])
    ));
    // The same parts as the tool's own: every provider gets them in its
    // own shape, as a local tool's.
    let local: ToolRegistry = ToolRegistry::new().with(Chart);
    let own = local.call(&ToolContext::new(()), "chart", json!({})).await;
    assert_eq!(chart.as_parts(), own.as_parts());
    // The server's error is an error result, not a Rust error.
    let failed = call(&handle, "calc_fail", json!({})).await;
    assert!(failed.is_error());
    assert_eq!(failed.model_text(), "the disk is full");

    mounted.unmount().await;
    assert_eq!(handle.current().names().collect::<Vec<_>>(), ["add"]);
    stop.cancel();
}

#[tokio::test]
async fn a_list_change_on_the_server_changes_the_mounted_tools() {
    let server = served();
    let (address, stop) = serve_http(server.clone()).await;
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
    let mounted = Mount::http("calc", format!("http://{address}/mcp"))
        .mount(&handle)
        .await
        .expect("mounted");
    let mut changes = handle.changes();
    server
        .replace_registry(ToolRegistry::new().with(Add).with(Fail))
        .await;
    let next = tokio::time::timeout(Duration::from_secs(10), changes.next())
        .await
        .expect("the list change is followed");
    assert_eq!(next.names().collect::<Vec<_>>(), ["add", "fail"]);
    assert_eq!(mounted.tools(), ["add", "fail"]);
    drop(mounted);
    stop.cancel();
}

#[tokio::test]
async fn what_cannot_be_mounted_says_so_and_names_the_server() {
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new().with(Add));
    // Nothing listens there.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    drop(listener);
    let error = Mount::http("nowhere", format!("http://{address}/mcp"))
        .connect_timeout(Duration::from_secs(10))
        .mount(&handle)
        .await
        .unwrap_err();
    assert!(matches!(error, MountError::Connect { .. }), "{error}");
    assert!(
        error
            .to_string()
            .starts_with("the MCP server `nowhere` could not be connected to: "),
        "{error}"
    );

    // A rule that names no tool: nothing is added.
    let (address, stop) = serve_http(served()).await;
    let error = Mount::http("calc", format!("http://{address}/mcp"))
        .compose(Compose::new().prefix("calc_").deny(["subtract"]))
        .mount(&handle)
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the tools of the MCP server `calc` cannot join the registry: tool `subtract` cannot be composed so: a rule names it, but there is no tool of that name; `Compose::lenient` allows that"
    );
    assert_eq!(handle.current().names().collect::<Vec<_>>(), ["add"]);

    // A name another tool holds, mounted leniently: that tool is left
    // out, the others mounted.
    let mounted = Mount::http("calc", format!("http://{address}/mcp"))
        .lenient()
        .mount(&handle)
        .await
        .expect("mounted");
    assert_eq!(mounted.tools(), ["weather", "chart", "fail"]);
    assert_eq!(
        mounted.refused(),
        [Refused {
            tool: "add".into(),
            reason: "a tool named `add` is already registered".into()
        }]
    );
    mounted.unmount().await;

    // A description over the limit: that tool is left out, the others mounted.
    let mounted = Mount::http("calc", format!("http://{address}/mcp"))
        .compose(Compose::new().prefix("calc_"))
        .max_description_bytes(13)
        .mount(&handle)
        .await
        .expect("mounted");
    assert_eq!(mounted.tools(), ["calc_chart", "calc_fail"]);
    let refused = mounted.refused();
    assert_eq!(refused.len(), 2);
    assert_eq!(
        (refused[0].tool.as_str(), refused[1].tool.as_str()),
        ("add", "weather")
    );
    assert_eq!(
        refused[0].reason,
        "its description is 16 bytes, over the mount's limit of 13"
    );
    stop.cancel();
}

/// A registry whose calls end within a second: a server that hangs is
/// given up on then.
fn quick() -> RegistryHandle {
    RegistryHandle::new(
        ToolRegistry::builder()
            .default_timeout(Duration::from_secs(1))
            .max_media_bytes(1024)
            .build(),
    )
}

fn hostile_server() -> tokio::process::Command {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/hostile_server.py");
    let mut command = tokio::process::Command::new("python3");
    command.arg(script);
    command
}

#[tokio::test]
async fn a_hostile_server_ends_in_refusals_and_error_results_never_a_panic() {
    let handle = quick();
    let mounted = Mount::stdio("hostile", hostile_server())
        .no_restart()
        .max_result_bytes(10_000)
        .mount(&handle)
        .await
        .expect("mounted");
    assert_eq!(
        mounted.tools(),
        [
            "good",
            "hang",
            "crash",
            "not_mcp",
            "garbage",
            "huge_image",
            "cancelled",
            "big_text",
            "pid",
            "9lives",
            "progress_burst",
            "task_at_once",
            "task_lost",
            "task_stuck"
        ]
    );
    let refused: Vec<(String, String)> = mounted
        .refused()
        .into_iter()
        .map(|refused| (refused.tool, refused.reason))
        .collect();
    assert_eq!(refused.len(), 3, "{refused:?}");
    assert_eq!(refused[0].0, "bad name!");
    assert!(
        refused[0].1.starts_with("invalid tool name `bad name!`"),
        "{}",
        refused[0].1
    );
    assert_eq!(refused[1].0, "broken_schema");
    assert!(
        refused[1]
            .1
            .starts_with("the input schema of tool `broken_schema` is not a valid JSON Schema"),
        "{}",
        refused[1].1
    );
    assert_eq!(
        refused[2],
        (
            "verbose".to_owned(),
            "its description is 1048576 bytes, over the mount's limit of 16384".to_owned()
        )
    );

    let good = call(&handle, "good", json!({"text": "hello"})).await;
    assert_eq!(good.model_text(), "hello");
    // Garbage on the pipe is read past.
    assert_eq!(
        call(&handle, "garbage", json!({})).await.model_text(),
        "still here"
    );
    // A call that never ends ends at the call's limit.
    let hung = call(&handle, "hang", json!({})).await;
    assert!(hung.is_error());
    assert_eq!(
        hung.model_text(),
        "tool `hang` did not finish within 1s and was stopped"
    );
    // What is not MCP's never resolves the call either: the limit ends it.
    let not_mcp = call(&handle, "not_mcp", json!({})).await;
    assert!(not_mcp.is_error(), "{}", not_mcp.model_text());
    // Media over the registry's limit is withheld.
    let huge = call(&handle, "huge_image", json!({})).await;
    assert!(huge.is_error());
    assert!(
        huge.model_text().contains("over the limit"),
        "{}",
        huge.model_text()
    );
    // A result over the mount's limit.
    let big = call(&handle, "big_text", json!({})).await;
    assert!(big.is_error());
    assert_eq!(
        big.model_text(),
        "the MCP server `hostile` answered `big_text` with 100000 bytes, over the mount's limit of 10000"
    );
    // The other tools kept working through all of it.
    assert_eq!(
        call(&handle, "good", json!({"text": "again"}))
            .await
            .model_text(),
        "again"
    );

    // A crash mid-call: that call's error says so, and, as the server is
    // not started again, its tools leave the registry.
    let crashed = call(&handle, "crash", json!({})).await;
    assert!(crashed.is_error());
    assert_eq!(
        crashed.model_text(),
        "the MCP server `hostile` closed its connection during the call of `crash`; \
         it is not started again, so its tools are no longer available"
    );
    let emptied = tokio::time::timeout(Duration::from_secs(5), async {
        while handle.current().tools().len() > 0 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(
        emptied.is_ok(),
        "{:?}",
        handle.current().names().collect::<Vec<_>>()
    );
    assert!(mounted.tools().is_empty());
    drop(mounted);
}

#[tokio::test]
async fn a_hostile_servers_task_tools_end_in_results_or_error_results() {
    let handle = quick();
    let _mounted = Mount::stdio("hostile", hostile_server())
        .no_restart()
        .mount(&handle)
        .await
        .expect("mounted");
    let ctx = ToolContext::new(());
    let outcome = async |tool: &str| {
        let pending = handle.call(&ctx, tool, json!({})).await;
        let id = pending
            .pending_call_id()
            .unwrap_or_else(|| panic!("{tool} is pending: {}", pending.model_text()))
            .to_owned();
        tokio::time::timeout(Duration::from_secs(10), handle.wait(&id))
            .await
            .expect("an outcome in time")
            .expect("a result")
    };
    // A server that runs the call at once, though asked for a task.
    let at_once = outcome("task_at_once").await;
    assert_eq!(at_once.model_text(), "ran at once (asked as a task)");
    // A task the server no longer knows.
    let lost = outcome("task_lost").await;
    assert!(lost.is_error());
    assert_eq!(
        lost.model_text(),
        "the MCP server `hostile` refused to call `task_lost`: unknown task"
    );
    // A task that never ends: the call's limit ends it, and the server is
    // asked to cancel the task.
    let stuck = outcome("task_stuck").await;
    assert!(stuck.is_error());
    assert_eq!(
        stuck.model_text(),
        "tool `task_stuck` did not finish within 1s and was stopped"
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    let cancelled = call(&handle, "cancelled", json!({})).await;
    assert!(
        cancelled.model_text().contains("\"task_stuck-1\""),
        "{}",
        cancelled.model_text()
    );
}

#[tokio::test]
async fn a_crashed_server_is_started_again_and_its_tools_come_back() {
    let handle = quick();
    let mounted = Mount::stdio("hostile", hostile_server())
        .restart(Restart::backoff(
            Duration::from_millis(300),
            Duration::from_secs(1),
        ))
        .mount(&handle)
        .await
        .expect("mounted");
    assert!(call(&handle, "crash", json!({})).await.is_error());
    tokio::time::sleep(Duration::from_millis(150)).await;
    let down = call(&handle, "good", json!({"text": "anyone?"})).await;
    assert_eq!(
        down.model_text(),
        "tool `good` is not available: the MCP server `hostile` is down (it closed its connection; starting it again, attempt 1)"
    );
    let back = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let answer = call(&handle, "good", json!({"text": "back"})).await;
            if !answer.is_error() {
                return answer.model_text().into_owned();
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert_eq!(back.as_deref(), Ok("back"));
    assert_eq!(mounted.tools().len(), 14);
    // Read again from the new process's listing.
    let current = handle.current();
    let stuck = current.info("task_stuck").expect("mounted again");
    assert!(stuck.metadata.long_running, "still run as a task");
    drop(mounted);
}

#[tokio::test]
async fn cancelling_a_call_tells_the_server() {
    let handle = RegistryHandle::new(ToolRegistry::new());
    let mounted = Mount::stdio("hostile", hostile_server())
        .mount(&handle)
        .await
        .expect("mounted");
    let token = tokio_util::sync::CancellationToken::new();
    let ctx = ToolContext::builder(()).cancellation(token.clone()).build();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        token.cancel();
    });
    let hung = handle.call(&ctx, "hang", json!({})).await;
    assert!(hung.is_error());
    // The server heard of it: the cancelled request is the call's.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let heard = call(&handle, "cancelled", json!({})).await;
    let ids: Vec<serde_json::Value> = serde_json::from_str(&heard.model_text()).expect("a list");
    assert_eq!(ids.len(), 1, "{ids:?}");
    drop(mounted);
}

#[tokio::test]
async fn the_child_process_ends_with_its_mount_and_is_reaped() {
    let handle = quick();
    let mounted = Mount::stdio("hostile", hostile_server())
        .mount(&handle)
        .await
        .expect("mounted");
    let pid = call(&handle, "pid", json!({}))
        .await
        .model_text()
        .into_owned();
    let proc = std::path::PathBuf::from(format!("/proc/{pid}"));
    assert!(proc.exists(), "the server runs as {pid}");
    mounted.unmount().await;
    // Neither running nor a zombie: gone from the process table.
    let gone = tokio::time::timeout(Duration::from_secs(15), async {
        while proc.exists() {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert!(
        gone.is_ok(),
        "process {pid} still there after its mount ended"
    );
    assert!(handle.current().tools().len() == 0);
}

#[tokio::test]
async fn every_page_of_the_servers_list_is_mounted() {
    let server = served().with_config(tool_mcp::McpConfig::new().with_page_size(2));
    let (address, stop) = serve_http(server).await;
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
    let mounted = Mount::http("calc", format!("http://{address}/mcp"))
        .mount(&handle)
        .await
        .expect("mounted");
    assert_eq!(mounted.tools(), ["add", "weather", "chart", "fail"]);
    drop(mounted);
    stop.cancel();
}

#[tokio::test]
async fn a_name_a_providers_check_refuses_is_left_out_naming_the_provider() {
    let handle: RegistryHandle = RegistryHandle::new(
        ToolRegistry::builder()
            .check(tool_core::provider::Provider::Gemini { openapi: false })
            .build(),
    );
    let mounted = Mount::stdio("hostile", hostile_server())
        .compose(Compose::new().allow(["good", "9lives"]))
        .mount(&handle)
        .await
        .expect("mounted");
    assert_eq!(mounted.tools(), ["good"]);
    let refused = mounted.refused();
    let nine = refused
        .iter()
        .find(|refused| refused.tool == "9lives")
        .expect("refused");
    assert!(
        nine.reason
            .starts_with("tool name `9lives` is rejected by Gemini"),
        "{}",
        nine.reason
    );
    drop(mounted);
}

/// Read a file.
#[tool(read_only, scopes = ["files:read"])]
fn read_file(path: String) -> String {
    format!("read {path}")
}

#[tokio::test]
async fn a_server_behind_a_bearer_token_is_mounted_with_it() {
    let server = McpServer::new(
        ToolRegistry::new().with(Add).with(ReadFile),
        ToolContext::new(()),
    )
    .with_config(
        tool_mcp::McpConfig::new()
            .with_bearer_auth(tool_mcp::BearerTokens::new().with_token("s3cret", ["files:read"])),
    );
    let (address, stop) = serve_http(server).await;
    let url = format!("http://{address}/mcp");
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
    // Without the token: refused at the door, saying so.
    let error = Mount::http("files", url.as_str())
        .mount(&handle)
        .await
        .unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("the MCP server `files` could not be connected to: "),
        "{error}"
    );
    // With it: its tools, the scoped one included, called with its scopes.
    let mount = Mount::http("files", url.as_str())
        .bearer_token("s3cret")
        .header("x-request-source", "tool-mcp-tests");
    let shown = format!("{mount:?}");
    assert!(
        !shown.contains("s3cret") && !shown.contains("tool-mcp-tests"),
        "{shown}"
    );
    let mounted = mount.mount(&handle).await.expect("mounted");
    assert_eq!(mounted.tools(), ["add", "read_file"]);
    assert_eq!(
        call(&handle, "read_file", json!({"path": "a.txt"}))
            .await
            .model_text(),
        "read a.txt"
    );
    drop(mounted);
    stop.cancel();
}
