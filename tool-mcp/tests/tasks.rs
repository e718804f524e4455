//! `long_running` tools as MCP tasks, with rmcp's own client: a client
//! that takes tasks gets one at once and reads the call's progress and
//! result through `tasks/get`, cancels it with `tasks/cancel`, and sees a
//! result the application delivers; another caller cannot see or cancel it.
//! Both forms: the tasks extension, and 2025-11-25's tasks (`params.task`,
//! `tasks/result`, `tasks/list`), whose requests rmcp's client sends as
//! custom requests.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities, ClientConfig,
    ClientRequest, CustomRequest, ErrorCode, GetTaskParams, Implementation, TaskPayload,
    TaskStatus,
};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ServiceError, ServiceExt};
use serde_json::{Value, json};
use support::{connect_2026, serve_http};
use tokio::sync::{Notify, mpsc};
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};
use tool_mcp::{BearerTokens, McpServer};

mod support;

#[derive(Default)]
struct App {
    /// Lets `render` finish.
    release: Notify,
    /// Told when `render` saw its call cancelled.
    cancelled: Mutex<Option<mpsc::UnboundedSender<()>>>,
}

/// Render a video.
#[tool(long_running, tier = Observe, timeout = "1h")]
async fn render(
    ctx: &ToolContext<App>,
    /// The video's name.
    name: String,
) -> String {
    ctx.progress(1.0, Some(2.0), "frames drawn");
    tokio::select! {
        () = ctx.state().release.notified() => format!("rendered {name}"),
        () = ctx.cancellation().cancelled() => {
            if let Some(told) = ctx.state().cancelled.lock().expect("unpoisoned").as_ref() {
                let _ = told.send(());
            }
            "stopped".to_owned()
        }
    }
}

/// Ask a person to approve a payment; the application delivers the answer.
#[tool(long_running, tier = Observe)]
fn approve_payment(
    /// The amount.
    amount: u32,
) -> ToolResult {
    let _ = amount;
    ToolResult::deferred()
}

/// Add two numbers.
#[tool(read_only, tier = Observe)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn server(app: &Arc<App>) -> McpServer<App> {
    let registry = ToolRegistry::new()
        .with(Render)
        .with(ApprovePayment)
        .with(Add);
    McpServer::new(registry, ToolContext::from_arc(Arc::clone(app)))
}

/// A client that says it takes tasks.
fn tasks_client() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::builder().enable_tasks().build(),
        Implementation::new("task-client", "1.0.0"),
    )
}

fn params(name: &str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    CallToolRequestParams::new(name.to_owned()).with_arguments(arguments)
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

    let pending = registry.pending_calls();
    assert_eq!(pending.len(), 1);
    let (payload, _) = poll_until(&client, &task_id, |_, _| true).await;
    assert_eq!(payload, TaskPayload::Working);
    registry
        .deliver(&pending[0], ToolResult::text("approved by Ada"))
        .expect("the call awaits its result");
    let (payload, _) = poll_until(&client, &task_id, |payload, _| {
        !matches!(payload, TaskPayload::Working)
    })
    .await;
    assert_eq!(
        completed_text(&payload),
        ("approved by Ada".to_owned(), json!(false))
    );
    assert!(registry.pending_calls().is_empty(), "the call is forgotten");
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
    let (address, stop) = serve_http(server(&app).with_bearer_auth(tokens)).await;
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

/// A request of 2025-11-25's tasks, which rmcp's client has no model for,
/// sent as a custom request; its answer as JSON.
async fn request_2025(
    client: &RunningService<RoleClient, ClientConfig>,
    method: &str,
    params: Value,
) -> Result<Value, (ErrorCode, String)> {
    let request = ClientRequest::CustomRequest(CustomRequest::new(method, Some(params)));
    match client.send_request(request).await {
        Ok(result) => Ok(serde_json::to_value(result).expect("JSON")),
        Err(ServiceError::McpError(error)) => Err((error.code, error.message.into_owned())),
        Err(other) => panic!("not a protocol error: {other:?}"),
    }
}

/// A client of 2025-11-25 over HTTP: it takes tasks as that version does,
/// without the extension.
async fn http_client_2025(
    address: SocketAddr,
    token: Option<&str>,
) -> RunningService<RoleClient, ClientConfig> {
    let mut config = StreamableHttpClientTransportConfig::with_uri(format!("http://{address}/mcp"));
    if let Some(token) = token {
        config = config.auth_header(token);
    }
    let transport = StreamableHttpClientTransport::from_config(config);
    ClientConfig::default()
        .serve(transport)
        .await
        .expect("initialized")
}

/// Starts `tool` as a task of 2025-11-25's form and gives its id.
async fn start_2025(
    client: &RunningService<RoleClient, ClientConfig>,
    tool: &str,
    arguments: Value,
) -> String {
    let created = request_2025(
        client,
        "tools/call",
        json!({"name": tool, "arguments": arguments, "task": {"ttl": 60000}}),
    )
    .await
    .expect("a task");
    assert_eq!(created["task"]["status"], "working", "{created}");
    assert_eq!(created["task"]["ttl"], 60000, "{created}");
    assert_eq!(created["task"]["pollInterval"], 1000, "{created}");
    created["task"]["taskId"]
        .as_str()
        .expect("a task id")
        .to_owned()
}

/// Polls 2025-11-25's `tasks/get` until `done` holds of the task.
async fn poll_2025(
    client: &RunningService<RoleClient, ClientConfig>,
    task_id: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    for _ in 0..1000 {
        let task = request_2025(client, "tasks/get", json!({"taskId": task_id}))
            .await
            .expect("the task exists");
        if done(&task) {
            return task;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("task {task_id} never reached the state waited for")
}

#[tokio::test]
async fn a_2025_11_25_client_asks_a_task_with_params_task_and_waits_for_its_result() {
    let app = Arc::new(App::default());
    let (address, stop) = serve_http(server(&app)).await;
    let client = http_client_2025(address, None).await;
    assert!(
        client
            .peer_info()
            .expect("initialized")
            .capabilities
            .supports_tasks(),
        "the server offers the extension too, which this client does not speak"
    );

    let task_id = start_2025(&client, "render", json!({"name": "intro"})).await;
    let task = poll_2025(&client, &task_id, |task| {
        task.get("statusMessage").is_some()
    })
    .await;
    assert_eq!(task["status"], "working");
    assert_eq!(task["statusMessage"], "1/2: frames drawn");
    // (rmcp's client reads this answer as the extension's task, which has
    // `ttlMs` where 2025-11-25 has `ttl`: the TypeScript SDK's test,
    // tests/mcp_sdk.rs, holds the wire shape.)

    // tasks/result waits for the call's end.
    let waiting = tokio::spawn({
        let peer = client.peer().clone();
        let task_id = task_id.clone();
        async move {
            let request = ClientRequest::CustomRequest(CustomRequest::new(
                "tasks/result",
                Some(json!({"taskId": task_id})),
            ));
            peer.send_request(request).await
        }
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!waiting.is_finished(), "tasks/result waits for the result");
    app.release.notify_one();
    let result =
        serde_json::to_value(waiting.await.expect("joined").expect("answered")).expect("JSON");
    assert_eq!(
        result,
        json!({
            "content": [{"type": "text", "text": "rendered intro"}],
            "isError": false,
            "_meta": {"io.modelcontextprotocol/related-task": {"taskId": task_id}},
        })
    );
    let task = poll_2025(&client, &task_id, |_| true).await;
    assert_eq!(task["status"], "completed");
    let listed = request_2025(&client, "tasks/list", json!({}))
        .await
        .expect("listed");
    assert_eq!(listed["tasks"].as_array().map(Vec::len), Some(1));
    assert_eq!(listed["tasks"][0]["taskId"], task_id.as_str());
    assert_eq!(listed["tasks"][0]["status"], "completed");
    client.cancel().await.expect("closed");
    stop.cancel();
}

#[tokio::test]
async fn tasks_cancel_of_2025_11_25_stops_the_call_and_answers_the_cancelled_task() {
    let app = Arc::new(App::default());
    let (told, mut cancelled) = mpsc::unbounded_channel();
    *app.cancelled.lock().expect("unpoisoned") = Some(told);
    let (address, stop) = serve_http(server(&app)).await;
    let client = http_client_2025(address, None).await;
    let task_id = start_2025(&client, "render", json!({"name": "long"})).await;
    poll_2025(&client, &task_id, |task| {
        task.get("statusMessage").is_some()
    })
    .await;

    let answer = request_2025(&client, "tasks/cancel", json!({"taskId": task_id}))
        .await
        .expect("cancelled");
    assert_eq!(answer["taskId"], task_id.as_str());
    assert_eq!(answer["status"], "cancelled", "{answer}");
    assert_eq!(
        cancelled.recv().await,
        Some(()),
        "the tool saw the cancellation"
    );
    assert_eq!(
        request_2025(&client, "tasks/cancel", json!({"taskId": task_id})).await,
        Err((
            ErrorCode::INVALID_PARAMS,
            format!("task {task_id} cannot be cancelled: it is already cancelled")
        ))
    );
    assert_eq!(
        request_2025(&client, "tasks/result", json!({"taskId": task_id})).await,
        Err((
            ErrorCode::INVALID_PARAMS,
            format!("task {task_id} has no result: it is cancelled")
        ))
    );
    client.cancel().await.expect("closed");
    stop.cancel();
}

#[tokio::test]
async fn only_long_running_tools_take_params_task_and_bad_arguments_end_the_task_at_once() {
    let app = Arc::new(App::default());
    let (address, stop) = serve_http(server(&app)).await;
    let client = http_client_2025(address, None).await;
    assert_eq!(
        request_2025(
            &client,
            "tools/call",
            json!({"name": "add", "arguments": {"a": 1, "b": 2}, "task": {}}),
        )
        .await,
        Err((
            ErrorCode::METHOD_NOT_FOUND,
            "tool `add` does not run as a task (its execution.taskSupport is \"forbidden\"): call \
             it without `task`"
                .to_owned()
        ))
    );
    // Without `task`, the same client's call is answered as always.
    let answer = client
        .call_tool(params("add", json!({"a": 1, "b": 2})))
        .await
        .expect("answered");
    assert_eq!(answer.content[0].as_text().expect("text").text, "3");

    let task_id = start_2025(&client, "render", json!({})).await;
    let result = request_2025(&client, "tasks/result", json!({"taskId": task_id}))
        .await
        .expect("a result");
    assert_eq!(result["isError"], true);
    assert_eq!(
        result["content"][0]["text"],
        "invalid arguments for tool `render`: missing argument `name`. Correct the arguments and \
         call the tool again."
    );
    assert_eq!(
        request_2025(
            &client,
            "tools/call",
            json!({"name": "no_such_tool", "arguments": {}, "task": {}}),
        )
        .await
        .map_err(|(code, _)| code),
        Err(ErrorCode::INVALID_PARAMS)
    );
    client.cancel().await.expect("closed");
    stop.cancel();
}

#[tokio::test]
async fn a_2025_11_25_caller_cannot_see_wait_for_or_cancel_another_tokens_task() {
    let app = Arc::new(App::default());
    let tokens = BearerTokens::new()
        .with_token("alice-secret", Vec::<String>::new())
        .with_token("bob-secret", Vec::<String>::new());
    let (address, stop) = serve_http(server(&app).with_bearer_auth(tokens)).await;
    let alice = http_client_2025(address, Some("alice-secret")).await;
    let bob = http_client_2025(address, Some("bob-secret")).await;
    let task_id = start_2025(&alice, "render", json!({"name": "private"})).await;

    let unknown = Err((
        ErrorCode::INVALID_PARAMS,
        format!("unknown task: {task_id}"),
    ));
    for method in ["tasks/get", "tasks/result", "tasks/cancel"] {
        assert_eq!(
            request_2025(&bob, method, json!({"taskId": task_id})).await,
            unknown,
            "{method}"
        );
    }
    let listed = request_2025(&bob, "tasks/list", json!({}))
        .await
        .expect("listed");
    assert_eq!(listed, json!({"tasks": []}));
    // Nor through the extension's requests.
    let read = bob.get_task(GetTaskParams::new(&task_id)).await;
    assert!(read.is_err(), "{read:?}");
    let task = poll_2025(&alice, &task_id, |_| true).await;
    assert_eq!(task["status"], "working", "the owner's task goes on");
    app.release.notify_one();
    let task = poll_2025(&alice, &task_id, |task| task["status"] != "working").await;
    assert_eq!(task["status"], "completed");
    for client in [alice, bob] {
        client.cancel().await.expect("closed");
    }
    stop.cancel();
}
