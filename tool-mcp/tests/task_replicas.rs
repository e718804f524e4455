//! Tasks shared by two servers on one store, as two replicas on one Redis
//! would be: a task started through one is read, waited for, listed and
//! cancelled through the other, as the same caller (a bearer token), and
//! hidden from any other caller on both; a cancel asked on one stops the
//! run on the other.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolResponse, CancelTaskParams, ClientCapabilities, ClientConfig, ClientRequest,
    CustomRequest, ErrorCode, GetTaskParams, Implementation, TaskPayload, TaskStatus,
};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ServiceError, ServiceExt};
use serde_json::{Value, json};
use support::serve_http;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tool_core::store::MemoryStore;
use tool_mcp::BearerTokens;
use tools::{App, params, server};

mod support;
#[path = "support/tools.rs"]
mod tools;

/// Two servers of the same tools sharing `store`, each on its own port.
async fn replicas(
    app: &Arc<App>,
    store: &MemoryStore,
) -> ([SocketAddr; 2], [CancellationToken; 2]) {
    let tokens = || {
        BearerTokens::new()
            .with_token("alice-secret", Vec::<String>::new())
            .with_token("bob-secret", Vec::<String>::new())
    };
    let one = || {
        server(app).with_config(
            tool_mcp::McpConfig::new()
                .with_store(store.clone())
                .with_bearer_auth(tokens()),
        )
    };
    let (first, stop_first) = serve_http(one()).await;
    let (second, stop_second) = serve_http(one()).await;
    ([first, second], [stop_first, stop_second])
}

async fn client(
    address: SocketAddr,
    token: &str,
    tasks: bool,
) -> RunningService<RoleClient, ClientConfig> {
    let config = StreamableHttpClientTransportConfig::with_uri(format!("http://{address}/mcp"))
        .auth_header(token);
    let capabilities = if tasks {
        ClientCapabilities::builder().enable_tasks().build()
    } else {
        ClientCapabilities::default()
    };
    ClientConfig::new(capabilities, Implementation::new("task-client", "1.0.0"))
        .serve(StreamableHttpClientTransport::from_config(config))
        .await
        .expect("initialized")
}

async fn start(client: &RunningService<RoleClient, ClientConfig>, name: &str) -> String {
    match client
        .call_tool_once(params("render", json!({"name": name})))
        .await
    {
        Ok(CallToolResponse::Task(created)) => created.task.task_id,
        other => panic!("not a task: {other:?}"),
    }
}

/// `tasks/get` until `done` holds of the task, for at most 10 s.
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

async fn request_2025(
    client: &RunningService<RoleClient, ClientConfig>,
    method: &str,
    params: Value,
) -> Result<Value, (ErrorCode, String)> {
    let request = ClientRequest::CustomRequest(CustomRequest::new(method, Some(params)));
    match tokio::time::timeout(Duration::from_secs(10), client.send_request(request))
        .await
        .unwrap_or_else(|_| panic!("{method}: no answer"))
    {
        Ok(result) => Ok(serde_json::to_value(result).expect("JSON")),
        Err(ServiceError::McpError(error)) => Err((error.code, error.message.into_owned())),
        Err(other) => panic!("not a protocol error: {other:?}"),
    }
}

fn unknown(task_id: &str) -> (ErrorCode, String) {
    (
        ErrorCode::INVALID_PARAMS,
        format!("unknown task: {task_id}"),
    )
}

#[tokio::test]
async fn a_task_started_on_one_replica_is_read_and_finished_through_the_other() {
    let app = Arc::new(App::default());
    let store = MemoryStore::new();
    let ([first, second], stops) = replicas(&app, &store).await;
    let alice_first = client(first, "alice-secret", true).await;
    let alice_second = client(second, "alice-secret", true).await;
    let bob_second = client(second, "bob-secret", true).await;

    let task_id = start(&alice_first, "intro").await;
    // Its progress, written where it runs, is read on the other.
    let (payload, message) =
        poll_until(&alice_second, &task_id, |_, message| message.is_some()).await;
    assert_eq!(payload, TaskPayload::Working);
    assert_eq!(message.as_deref(), Some("1/2: frames drawn"));
    // Another caller does not learn it exists, on either.
    let refused = bob_second.get_task(GetTaskParams::new(&task_id)).await;
    match refused {
        Err(ServiceError::McpError(error)) => {
            assert_eq!((error.code, error.message.into_owned()), unknown(&task_id));
        }
        other => panic!("not refused: {other:?}"),
    }

    app.release.notify_one();
    let (payload, _) = poll_until(&alice_second, &task_id, |payload, _| {
        !matches!(payload, TaskPayload::Working)
    })
    .await;
    let TaskPayload::Completed { result } = payload else {
        panic!("not completed: {payload:?}")
    };
    assert_eq!(result["content"][0]["text"], "rendered intro");
    for client in [alice_first, alice_second, bob_second] {
        client.cancel().await.expect("closed");
    }
    stops.iter().for_each(CancellationToken::cancel);
}

#[tokio::test]
async fn a_cancel_asked_on_one_replica_stops_the_run_on_the_other() {
    let app = Arc::new(App::default());
    let (told, mut cancelled) = mpsc::unbounded_channel();
    *app.cancelled.lock().expect("unpoisoned") = Some(told);
    let store = MemoryStore::new();
    let ([first, second], stops) = replicas(&app, &store).await;
    let alice_first = client(first, "alice-secret", true).await;
    let alice_second = client(second, "alice-secret", true).await;

    let task_id = start(&alice_first, "long").await;
    poll_until(&alice_second, &task_id, |_, message| message.is_some()).await;
    let asked = Instant::now();
    alice_second
        .cancel_task(CancelTaskParams::new(&task_id))
        .await
        .expect("acknowledged");
    tokio::time::timeout(Duration::from_secs(1), cancelled.recv())
        .await
        .expect("the run saw its cancel within a second")
        .expect("told");
    let (payload, message) = poll_until(&alice_first, &task_id, |payload, _| {
        !matches!(payload, TaskPayload::Working)
    })
    .await;
    assert_eq!(payload, TaskPayload::Cancelled);
    assert_eq!(message.as_deref(), Some("cancelled"));
    assert!(asked.elapsed() < Duration::from_secs(5));
    for client in [alice_first, alice_second] {
        client.cancel().await.expect("closed");
    }
    stops.iter().for_each(CancellationToken::cancel);
}

#[tokio::test]
async fn a_2025_task_is_waited_for_listed_and_cancelled_through_the_other_replica() {
    let app = Arc::new(App::default());
    let store = MemoryStore::new();
    let ([first, second], stops) = replicas(&app, &store).await;
    let alice_first = client(first, "alice-secret", false).await;
    let alice_second = client(second, "alice-secret", false).await;
    let bob_first = client(first, "bob-secret", false).await;

    let mut ids = Vec::new();
    for name in ["one", "two", "three"] {
        let created = request_2025(
            &alice_first,
            "tools/call",
            json!({"name": "render", "arguments": {"name": name}, "task": {"ttl": 60000}}),
        )
        .await
        .expect("a task");
        assert_eq!(created["task"]["status"], "working");
        ids.push(
            created["task"]["taskId"]
                .as_str()
                .expect("an id")
                .to_owned(),
        );
    }
    // Listed on the other, oldest first; the other caller has none.
    let listed = request_2025(&alice_second, "tasks/list", json!({}))
        .await
        .expect("listed");
    let listed: Vec<&str> = listed["tasks"]
        .as_array()
        .expect("tasks")
        .iter()
        .map(|task| task["taskId"].as_str().expect("an id"))
        .collect();
    assert_eq!(listed, ids);
    assert_eq!(
        request_2025(&bob_first, "tasks/list", json!({})).await,
        Ok(json!({"tasks": []}))
    );

    // tasks/result on the other replica waits for the run on the first.
    let waiting = tokio::spawn({
        let peer = alice_second.peer().clone();
        let task_id = ids[0].clone();
        async move {
            let request = ClientRequest::CustomRequest(CustomRequest::new(
                "tasks/result",
                Some(json!({"taskId": task_id})),
            ));
            peer.send_request(request).await
        }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!waiting.is_finished(), "tasks/result waits for the result");
    app.release.notify_one();
    let result = tokio::time::timeout(Duration::from_secs(10), waiting)
        .await
        .expect("answered")
        .expect("joined")
        .expect("a result");
    let result = serde_json::to_value(result).expect("JSON");
    assert_eq!(result["content"][0]["text"], "rendered one");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
        ids[0]
    );

    // Cancelled through the other: answered once the run has stopped.
    let cancelled = request_2025(&alice_second, "tasks/cancel", json!({"taskId": ids[1]}))
        .await
        .expect("cancelled");
    assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
    assert_eq!(
        request_2025(&alice_first, "tasks/cancel", json!({"taskId": ids[1]})).await,
        Err((
            ErrorCode::INVALID_PARAMS,
            format!(
                "task {} cannot be cancelled: it is already cancelled",
                ids[1]
            )
        ))
    );
    assert_eq!(
        request_2025(&bob_first, "tasks/result", json!({"taskId": ids[2]})).await,
        Err(unknown(&ids[2]))
    );
    request_2025(&alice_first, "tasks/cancel", json!({"taskId": ids[2]}))
        .await
        .expect("cancelled");
    let got = alice_second.get_task(GetTaskParams::new(&ids[2])).await;
    // (rmcp's client reads 2025-11-25's task as the extension's.)
    assert_eq!(got.expect("read").task.task.status, TaskStatus::Cancelled);
    for client in [alice_first, alice_second, bob_first] {
        client.cancel().await.expect("closed");
    }
    stops.iter().for_each(CancellationToken::cancel);
}
