//! A mounted server's tool that runs as a task (`execution.taskSupport` in
//! its listing) is a `long_running` tool in the registry: its call is
//! pending at once, the server's task is awaited (over 2026-07-28, the
//! task the server makes of the call, read with `tasks/get`; over
//! 2025-11-25, a call made as a task and `tasks/result`), its status
//! reaches whoever hears the call's progress, and cancelling the call
//! cancels the task on the server. The server is a tool-mcp server over
//! streamable HTTP answering with server-sent events, and one answering
//! with plain JSON (whose `tools/list` rmcp's client gives only parsed,
//! without `execution`).

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tool_core::toolset::RegistryHandle;
use tool_core::{ToolContext, ToolRegistry};
use tool_mcp::mount::{Mount, Protocol};
use tools::{App, server};

#[path = "support/tools.rs"]
#[allow(dead_code, reason = "only the server and its state are needed here")]
mod tools;

/// Longer than any answer here takes, unless something is broken.
const PATIENCE: Duration = Duration::from_secs(10);

/// The task tools' server over HTTP, answering with plain JSON where it
/// can when `json` is set; mounted in a new registry, spoken to in
/// `protocol`.
async fn mounted(
    app: &Arc<App>,
    json: bool,
    protocol: Protocol,
) -> (RegistryHandle, tool_mcp::mount::Mounted) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let address = listener.local_addr().expect("bound");
    let mut config = tool_mcp::http_config();
    if json {
        config = config
            .with_legacy_session_mode(false)
            .with_json_response(true);
    }
    tokio::spawn(server(app).serve_http_with(listener, config));
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
    let mount = Mount::http("studio", format!("http://{address}/mcp"))
        .protocol(protocol)
        .mount(&handle)
        .await
        .expect("mounted");
    (handle, mount)
}

async fn a_task_tool_is_long_running_and_its_result_comes_when_the_task_ends(
    json: bool,
    protocol: Protocol,
) {
    let app = Arc::new(App::default());
    let (handle, _mount) = mounted(&app, json, protocol).await;
    let current = handle.current();
    let render = current.info("render").expect("render is mounted");
    assert!(render.metadata.long_running, "render runs as a task");
    assert!(
        !current.info("add").expect("add").metadata.long_running,
        "add does not"
    );

    let ctx = ToolContext::new(());
    let pending = handle.call(&ctx, "render", json!({"name": "intro"})).await;
    let id = pending
        .pending_call_id()
        .unwrap_or_else(|| panic!("a pending result: {}", pending.model_text()))
        .to_owned();
    // The server's run is under way; let it finish.
    tokio::time::sleep(Duration::from_millis(200)).await;
    app.release.notify_one();
    let result = tokio::time::timeout(PATIENCE, handle.wait(&id))
        .await
        .expect("the task's result within the patience")
        .expect("a result for the pending call");
    assert!(!result.is_error(), "{}", result.model_text());
    assert_eq!(result.model_text(), "rendered intro");

    let sum = handle.call(&ctx, "add", json!({"a": 2, "b": 3})).await;
    assert_eq!(
        sum.model_text(),
        "5",
        "the other tools are called as before"
    );
}

#[tokio::test]
async fn over_server_sent_events() {
    a_task_tool_is_long_running_and_its_result_comes_when_the_task_ends(false, Protocol::Newest)
        .await;
}

#[tokio::test]
async fn over_plain_json_answers() {
    a_task_tool_is_long_running_and_its_result_comes_when_the_task_ends(true, Protocol::Newest)
        .await;
}

#[tokio::test]
async fn over_2025_11_25_sessions() {
    for json in [false, true] {
        a_task_tool_is_long_running_and_its_result_comes_when_the_task_ends(
            json,
            Protocol::V2025_11_25,
        )
        .await;
    }
}

#[tokio::test]
async fn the_tasks_status_is_heard_as_progress() {
    for protocol in [Protocol::Newest, Protocol::V2025_11_25] {
        the_tasks_status_is_heard_as_progress_in(protocol).await;
    }
}

async fn the_tasks_status_is_heard_as_progress_in(protocol: Protocol) {
    let app = Arc::new(App::default());
    let (handle, _mount) = mounted(&app, false, protocol).await;
    let (heard, mut hear) = mpsc::unbounded_channel();
    let ctx = ToolContext::builder(())
        .progress_listener(move |event| {
            let _ = heard.send(event.message.map(str::to_owned));
        })
        .build();
    let pending = handle.call(&ctx, "render", json!({"name": "intro"})).await;
    let id = pending.pending_call_id().expect("pending").to_owned();
    let message = tokio::time::timeout(PATIENCE, hear.recv())
        .await
        .expect("progress within the patience")
        .expect("a report");
    // The server's status message, which says the render's own progress.
    assert_eq!(message.as_deref(), Some("1/2: frames drawn"));
    app.release.notify_one();
    let result = tokio::time::timeout(PATIENCE, handle.wait(&id))
        .await
        .expect("in time")
        .expect("a result");
    assert_eq!(result.model_text(), "rendered intro");
}

#[tokio::test]
async fn cancelling_the_call_cancels_the_task_on_the_server() {
    for protocol in [Protocol::Newest, Protocol::V2025_11_25] {
        cancelling_the_call_cancels_the_task_on_the_server_in(protocol).await;
    }
}

async fn cancelling_the_call_cancels_the_task_on_the_server_in(protocol: Protocol) {
    let app = Arc::new(App::default());
    let (told, mut cancelled) = mpsc::unbounded_channel();
    *app.cancelled.lock().expect("unpoisoned") = Some(told);
    let (handle, _mount) = mounted(&app, false, protocol).await;
    let token = CancellationToken::new();
    let ctx = ToolContext::builder(()).cancellation(token.clone()).build();
    let pending = handle.call(&ctx, "render", json!({"name": "intro"})).await;
    let id = pending.pending_call_id().expect("pending").to_owned();
    tokio::time::sleep(Duration::from_millis(200)).await;
    token.cancel();
    tokio::time::timeout(PATIENCE, cancelled.recv())
        .await
        .expect("the server's run saw its cancellation")
        .expect("told");
    let result = tokio::time::timeout(PATIENCE, handle.wait(&id))
        .await
        .expect("in time")
        .expect("a result");
    assert!(result.is_error());
    assert_eq!(result.model_text(), "the call of `render` was cancelled");
}
