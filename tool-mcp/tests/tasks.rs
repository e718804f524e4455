//! `long_running` tools as MCP tasks, with rmcp's own client: a client
//! that takes tasks gets one at once and reads the call's progress and
//! result through `tasks/get`, cancels it with `tasks/cancel`, and sees a
//! result the application delivers; another caller cannot see or cancel it.
//! (2025-11-25's form of tasks: `tasks_2025.rs`.)

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolResponse, CancelTaskParams, ClientCapabilities, ClientConfig, ErrorCode, GetTaskParams,
    Implementation, TaskPayload, TaskStatus,
};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ServiceError, ServiceExt};
use serde_json::{Value, json};
use support::{connect_2026, serve_http};
use tokio::sync::mpsc;
use tool_core::{ToolContext, ToolRegistry, ToolResult};
use tool_mcp::{BearerTokens, McpServer};
use tools::{Add, App, params, server};

mod support;
#[path = "support/tools.rs"]
mod tools;

/// A client that says it takes tasks.
fn tasks_client() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::builder().enable_tasks().build(),
        Implementation::new("task-client", "1.0.0"),
    )
}

/// Starts a task and gives its id.
async fn start(
    client: &RunningService<RoleClient, ClientConfig>,
    name: &str,
    args: Value,
) -> String {
    match client.call_tool_once(params(name, args)).await {
        Ok(CallToolResponse::Task(created)) => {
            assert_eq!(created.task.status, TaskStatus::Working);
            created.task.task_id
        }
        other => panic!("not a task: {other:?}"),
    }
}

/// Polls `tasks/get` until `done` holds of the task's payload and status
/// message (a bound on waiting, so that a broken server fails rather than
/// hangs the test).
async fn poll_until(
    client: &RunningService<RoleClient, ClientConfig>,
    task_id: &str,
    done: impl Fn(&TaskPayload, Option<&str>) -> bool,
) -> (TaskPayload, Option<String>) {
    for _ in 0..1000 {
        let got = client
            .get_task(GetTaskParams::new(task_id))
            .await
            .expect("the task exists");
        let message = got.task.task.status_message.clone();
        if done(&got.task.payload, message.as_deref()) {
            return (got.task.payload, message);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("task {task_id} never reached the state waited for")
}

fn completed_text(payload: &TaskPayload) -> (String, Value) {
    let TaskPayload::Completed { result } = payload else {
        panic!("not completed: {payload:?}")
    };
    let text = result["content"][0]["text"]
        .as_str()
        .expect("a text block")
        .to_owned();
    (text, result.get("isError").cloned().unwrap_or(Value::Null))
}

async fn in_process(
    server: McpServer<App>,
    client: ClientConfig,
) -> RunningService<RoleClient, ClientConfig> {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let running = server.serve(server_io).await.expect("initialized");
        let _ = running.waiting().await;
    });
    client.serve(client_io).await.expect("initialized")
}

#[tokio::test]
async fn a_long_running_call_is_a_task_whose_progress_and_result_tasks_get_reads() {
    let app = Arc::new(App::default());
    let client = in_process(server(&app), tasks_client()).await;
    assert!(
        client
            .peer_info()
            .expect("initialized")
            .capabilities
            .supports_tasks(),
        "a server with a long_running tool offers tasks"
    );

    let task_id = start(&client, "render", json!({"name": "intro"})).await;
    let (payload, message) = poll_until(&client, &task_id, |_, message| message.is_some()).await;
    assert_eq!(payload, TaskPayload::Working);
    assert_eq!(message.as_deref(), Some("1/2: frames drawn"));

    app.release.notify_one();
    let (payload, _) = poll_until(&client, &task_id, |payload, _| {
        !matches!(payload, TaskPayload::Working)
    })
    .await;
    assert_eq!(
        completed_text(&payload),
        ("rendered intro".to_owned(), json!(false))
    );

    // A call of a tool that is not long_running is answered as always.
    let answer = client
        .call_tool_once(params("add", json!({"a": 2, "b": 3})))
        .await
        .expect("answered");
    let CallToolResponse::Complete(result) = answer else {
        panic!("not a direct result: {answer:?}")
    };
    assert_eq!(result.content[0].as_text().expect("text").text, "5");
    // Bad arguments fail at once, without a task.
    let answer = client
        .call_tool_once(params("render", json!({})))
        .await
        .expect("answered");
    let CallToolResponse::Complete(result) = answer else {
        panic!("not a direct result: {answer:?}")
    };
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        result.content[0].as_text().expect("text").text,
        "invalid arguments for tool `render`: missing argument `name`. Correct the arguments \
         and call the tool again."
    );
    client.cancel().await.expect("closed");
}

#[tokio::test]
async fn a_client_that_takes_no_tasks_waits_for_the_result() {
    let app = Arc::new(App::default());
    let server = server(&app);
    // A server without long_running tools does not offer tasks.
    let plain = McpServer::new(
        ToolRegistry::new().with(Add),
        ToolContext::from_arc(Arc::clone(&app)),
    );
    let plain = in_process(plain, tasks_client()).await;
    let info = plain.peer_info().expect("initialized");
    assert!(!info.capabilities.supports_tasks());
    plain.cancel().await.expect("closed");

    let client = in_process(server, ClientConfig::default()).await;
    let call = tokio::spawn({
        let peer = client.peer().clone();
        async move {
            peer.call_tool(params("render", json!({"name": "outro"})))
                .await
        }
    });
    // The call waits for the tool, however long it takes.
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!call.is_finished());
    app.release.notify_one();
    let result = call.await.expect("joined").expect("answered");
    assert_eq!(
        result.content[0].as_text().expect("text").text,
        "rendered outro"
    );
    client.cancel().await.expect("closed");
}

#[tokio::test]
async fn tasks_cancel_cancels_the_call() {
    let app = Arc::new(App::default());
    let (told, mut cancelled) = mpsc::unbounded_channel();
    *app.cancelled.lock().expect("unpoisoned") = Some(told);
    let client = in_process(server(&app), tasks_client()).await;
    let task_id = start(&client, "render", json!({"name": "long"})).await;
    poll_until(&client, &task_id, |_, message| message.is_some()).await;

    client
        .cancel_task(CancelTaskParams::new(&task_id))
        .await
        .expect("acknowledged");
    assert_eq!(
        cancelled.recv().await,
        Some(()),
        "the tool saw the cancellation"
    );
    let (payload, _) = poll_until(&client, &task_id, |payload, _| {
        !matches!(payload, TaskPayload::Working)
    })
    .await;
    assert_eq!(payload, TaskPayload::Cancelled);
    client.cancel().await.expect("closed");
}

#[tokio::test]
async fn a_result_the_application_delivers_completes_the_task() {
    let app = Arc::new(App::default());
    let server = server(&app);
    let registry = server.registry();
    let client = in_process(server, tasks_client()).await;
    let task_id = start(&client, "approve_payment", json!({"amount": 30})).await;

    let pending = registry.pending().ids();
    assert_eq!(pending.len(), 1);
    let (payload, _) = poll_until(&client, &task_id, |_, _| true).await;
    assert_eq!(payload, TaskPayload::Working);
    registry
        .pending()
        .deliver(&pending[0], ToolResult::text("approved by Ada"))
        .await
        .expect("the call awaits its result");
    let (payload, _) = poll_until(&client, &task_id, |payload, _| {
        !matches!(payload, TaskPayload::Working)
    })
    .await;
    assert_eq!(
        completed_text(&payload),
        ("approved by Ada".to_owned(), json!(false))
    );
    assert!(registry.pending().ids().is_empty(), "the call is forgotten");
    client.cancel().await.expect("closed");
}

async fn http_client(
    address: SocketAddr,
    token: Option<&str>,
) -> RunningService<RoleClient, ClientConfig> {
    let mut config = StreamableHttpClientTransportConfig::with_uri(format!("http://{address}/mcp"));
    if let Some(token) = token {
        config = config.auth_header(token);
    }
    let transport = StreamableHttpClientTransport::from_config(config);
    tasks_client().serve(transport).await.expect("initialized")
}

/// `tasks/get` and `tasks/cancel` of `other`, who did not make the task,
/// are refused as for a task that does not exist, and the task goes on.
async fn assert_hidden_from(
    owner: &RunningService<RoleClient, ClientConfig>,
    other: &RunningService<RoleClient, ClientConfig>,
    task_id: &str,
) {
    let unknown = |error: ServiceError| match error {
        ServiceError::McpError(error) => (error.code, error.message.into_owned()),
        other => panic!("not a protocol error: {other:?}"),
    };
    let expected = (
        ErrorCode::INVALID_PARAMS,
        format!("unknown task: {task_id}"),
    );
    let read = other.get_task(GetTaskParams::new(task_id)).await;
    assert_eq!(unknown(read.expect_err("refused")), expected);
    let cancel = other.cancel_task(CancelTaskParams::new(task_id)).await;
    assert_eq!(unknown(cancel.expect_err("refused")), expected);
    let nothing = other.get_task(GetTaskParams::new("no-such-task")).await;
    assert_eq!(
        unknown(nothing.expect_err("refused")),
        (
            ErrorCode::INVALID_PARAMS,
            "unknown task: no-such-task".to_owned()
        )
    );
    let (payload, _) = poll_until(owner, task_id, |_, _| true).await;
    assert_eq!(payload, TaskPayload::Working, "the owner's task goes on");
}

#[tokio::test]
async fn a_caller_cannot_read_or_cancel_another_tokens_task() {
    let app = Arc::new(App::default());
    let tokens = BearerTokens::new()
        .with_token("alice-secret", Vec::<String>::new())
        .with_token("bob-secret", Vec::<String>::new());
    let (address, stop) =
        serve_http(server(&app).with_config(tool_mcp::McpConfig::new().with_bearer_auth(tokens)))
            .await;
    let alice = http_client(address, Some("alice-secret")).await;
    let bob = http_client(address, Some("bob-secret")).await;
    // Alice again, over a second connection: the token is who calls.
    let alice_again = http_client(address, Some("alice-secret")).await;

    let task_id = start(&alice, "render", json!({"name": "private"})).await;
    assert_hidden_from(&alice, &bob, &task_id).await;
    let (payload, _) = poll_until(&alice_again, &task_id, |_, _| true).await;
    assert_eq!(payload, TaskPayload::Working);

    app.release.notify_one();
    let (payload, _) = poll_until(&alice, &task_id, |payload, _| {
        !matches!(payload, TaskPayload::Working)
    })
    .await;
    assert_eq!(completed_text(&payload).0, "rendered private");
    for client in [alice, bob, alice_again] {
        client.cancel().await.expect("closed");
    }
    stop.cancel();
}

#[tokio::test]
async fn without_tokens_a_session_cannot_read_or_cancel_another_sessions_task() {
    let app = Arc::new(App::default());
    let (address, stop) = serve_http(server(&app)).await;
    let first = http_client(address, None).await;
    let second = http_client(address, None).await;
    let task_id = start(&first, "render", json!({"name": "mine"})).await;
    assert_hidden_from(&first, &second, &task_id).await;
    app.release.notify_one();
    for client in [first, second] {
        client.cancel().await.expect("closed");
    }
    stop.cancel();
}

#[tokio::test]
async fn a_2026_client_gets_a_task_by_declaring_tasks_in_each_request() {
    let app = Arc::new(App::default());
    let (address, stop) = serve_http(server(&app)).await;
    let client = connect_2026(tasks_client(), address).await;
    let task_id = start(&client, "render", json!({"name": "modern"})).await;
    app.release.notify_one();
    let (payload, _) = poll_until(&client, &task_id, |payload, _| {
        !matches!(payload, TaskPayload::Working)
    })
    .await;
    assert_eq!(completed_text(&payload).0, "rendered modern");
    client.cancel().await.expect("closed");
    stop.cancel();
}
