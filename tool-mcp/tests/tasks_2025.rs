//! 2025-11-25's tasks, with rmcp's own client, over HTTP (the transport
//! that reads their requests before rmcp does): a `tools/call` with
//! `params.task` is answered with a task, `tasks/result` waits for the
//! call's result, `tasks/cancel` stops it and answers the cancelled task,
//! `tasks/list` lists the caller's tasks, and another caller sees none of
//! them. rmcp's client has no model of these requests: it sends them as
//! custom requests.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolResponse, ClientCapabilities, ClientConfig, ClientRequest, CustomRequest, ErrorCode,
    GetTaskParams, Implementation, TaskPayload,
};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ServiceError, ServiceExt};
use serde_json::{Value, json};
use support::{connect_2026, serve_http};
use tokio::sync::mpsc;
use tool_mcp::BearerTokens;
use tools::{App, params, server};

mod support;
#[path = "support/tools.rs"]
mod tools;

/// Longer than any answer here takes, unless the server is broken.
const PATIENCE: Duration = Duration::from_secs(10);

/// A request of 2025-11-25's tasks, which rmcp's client has no model for,
/// sent as a custom request; its answer as JSON.
async fn request_2025(
    client: &RunningService<RoleClient, ClientConfig>,
    method: &str,
    params: Value,
) -> Result<Value, (ErrorCode, String)> {
    let request = ClientRequest::CustomRequest(CustomRequest::new(method, Some(params)));
    // A bound on waiting: a server that does not answer at once (one
    // that runs the call rather than make a task of it) fails the test.
    let answer = tokio::time::timeout(PATIENCE, client.send_request(request))
        .await
        .unwrap_or_else(|_| panic!("{method}: no answer in {PATIENCE:?}"));
    match answer {
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
    let (address, stop) =
        serve_http(server(&app).with_config(tool_mcp::McpConfig::new().with_bearer_auth(tokens)))
            .await;
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

#[tokio::test]
async fn the_extensions_tasks_are_left_to_it_and_hidden_from_everyone_else() {
    let app = Arc::new(App::default());
    let (address, stop) = serve_http(server(&app)).await;
    let modern = connect_2026(
        ClientConfig::new(
            ClientCapabilities::builder().enable_tasks().build(),
            Implementation::new("task-client", "1.0.0"),
        ),
        address,
    )
    .await;
    let legacy = http_client_2025(address, None).await;
    let created = modern
        .call_tool_once(params("render", json!({"name": "modern"})))
        .await
        .expect("answered");
    let CallToolResponse::Task(created) = created else {
        panic!("not a task: {created:?}")
    };
    let task_id = created.task.task_id;
    app.release.notify_one();
    // Read through the router as the extension's task, result inline.
    let mut payload = TaskPayload::Working;
    for _ in 0..1000 {
        payload = modern
            .get_task(GetTaskParams::new(&task_id))
            .await
            .expect("the task exists")
            .task
            .payload;
        if payload != TaskPayload::Working {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let TaskPayload::Completed { result } = payload else {
        panic!("not completed: {payload:?}")
    };
    assert_eq!(result["content"][0]["text"], "rendered modern");
    let listed = request_2025(&legacy, "tasks/list", json!({}))
        .await
        .expect("listed");
    assert_eq!(listed, json!({"tasks": []}), "another caller's task");
    // Nor does another caller learn that it exists, whichever request.
    for method in ["tasks/get", "tasks/cancel", "tasks/result"] {
        assert_eq!(
            request_2025(&legacy, method, json!({"taskId": task_id})).await,
            Err((
                ErrorCode::INVALID_PARAMS,
                format!("unknown task: {task_id}")
            )),
            "{method}"
        );
    }
    for client in [modern, legacy] {
        client.cancel().await.expect("closed");
    }
    stop.cancel();
}
