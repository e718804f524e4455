//! tool-mcp's tasks run by a real `restate-server` (`RestateTasks`): a
//! task asked of one replica of an MCP server is read, waited for and
//! listed through another after the first is gone, with the tool's exact
//! result; it stays its caller's alone; a cancel ends it cancelled.

#[path = "support/mcp.rs"]
mod mcp;
mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mcp::{Client, RawSession, Replica, client, request_2025, unknown};
use rmcp::ServiceError;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, GetTaskParams, TaskPayload,
};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_restate::{CALLER_HEADER, RestateService, RestateTasks};

use support::server::Server;

/// What the tools did, where they ran.
#[derive(Default)]
struct Effects {
    renders: AtomicUsize,
    /// Exports begun, and ended.
    exporting: AtomicUsize,
    exports: AtomicUsize,
    /// The callers the worker was told of, one per invocation.
    callers: Mutex<Vec<String>>,
}

/// Render a video.
#[tool(long_running)]
async fn render(
    ctx: &ToolContext<Effects>,
    /// The video's name.
    name: String,
) -> String {
    tokio::time::sleep(Duration::from_millis(1500)).await;
    ctx.state().renders.fetch_add(1, Ordering::SeqCst);
    format!("rendered {name}")
}

/// Export a video, slowly.
#[tool(long_running)]
async fn export(
    ctx: &ToolContext<Effects>,
    /// The video's name.
    name: String,
) -> String {
    ctx.state().exporting.fetch_add(1, Ordering::SeqCst);
    tokio::select! {
        () = tokio::time::sleep(Duration::from_secs(30)) => {}
        () = ctx.cancellation().cancelled() => return format!("stopped exporting {name}"),
    }
    ctx.state().exports.fetch_add(1, Ordering::SeqCst);
    format!("exported {name}")
}

fn registry() -> ToolRegistry<Effects> {
    ToolRegistry::new().with(Render).with(Export)
}

/// A fresh server with the registry served by a worker in this process;
/// what the worker's tools did.
async fn worker(test: &str) -> (Server, Arc<Effects>) {
    let server = Server::start(test).await;
    let effects = Arc::new(Effects::default());
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let address = listener.local_addr().expect("its address");
    let service = RestateService::new(registry(), {
        let effects = Arc::clone(&effects);
        move |invocation| {
            let caller = invocation.header(CALLER_HEADER).unwrap_or("none");
            effects
                .callers
                .lock()
                .expect("unpoisoned")
                .push(caller.to_owned());
            ToolContext::from_arc(Arc::clone(&effects))
        }
    });
    tokio::spawn(service.serve(listener, std::future::pending()));
    server.register(&format!("http://{address}")).await;
    (server, effects)
}

/// A replica of the MCP server whose tasks `server` runs; its own tools'
/// effects (none: it runs no task's tool).
async fn replica(server: &Server) -> (Replica, Arc<Effects>) {
    let tasks = RestateTasks::new(server.ingress(), server.admin());
    let effects = Arc::new(Effects::default());
    let replica = Replica::start(
        registry(),
        ToolContext::from_arc(Arc::clone(&effects)),
        tasks,
    );
    (replica.await, effects)
}

/// Asks for a task of `tool` in the extension's form: its id.
async fn start(client: &Client, tool: &str, name: &str) -> String {
    let Value::Object(arguments) = json!({"name": name}) else {
        unreachable!()
    };
    match client
        .call_tool_once(CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments))
        .await
    {
        Ok(CallToolResponse::Task(created)) => created.task.task_id,
        other => panic!("not a task: {other:?}"),
    }
}

/// `tasks/get` until the task has ended, for at most 30 s: how it ended,
/// and its status message.
async fn ended(client: &Client, task_id: &str) -> (TaskPayload, Option<String>) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let got = client
            .get_task(GetTaskParams::new(task_id))
            .await
            .expect("the task exists");
        if !matches!(got.task.payload, TaskPayload::Working) {
            return (got.task.payload, got.task.task.status_message);
        }
        assert!(Instant::now() < deadline, "task {task_id} never ended");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// What `client` is told asking for another's task.
async fn refused(client: &Client, task_id: &str) {
    match client.get_task(GetTaskParams::new(task_id)).await {
        Err(ServiceError::McpError(error)) => {
            assert_eq!((error.code, error.message.into_owned()), unknown(task_id));
        }
        other => panic!("not refused: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_outlives_the_replica_that_started_it() {
    let (server, effects) = worker("mcp-replicas").await;
    let (first, first_effects) = replica(&server).await;
    let (second, second_effects) = replica(&server).await;

    // Asked of the first replica, which then goes away.
    let alice_first = client(first.address, "alice-secret", true).await;
    let task_id = start(&alice_first, "render", "intro").await;
    assert!(task_id.starts_with("inv_"), "{task_id}");
    alice_first.cancel().await.expect("closed");
    first.stop();

    // The second replica answers for it: working, then its result.
    let alice = client(second.address, "alice-secret", true).await;
    let bob = client(second.address, "bob-secret", true).await;
    let (payload, _) = ended(&alice, &task_id).await;
    let TaskPayload::Completed { result } = payload else {
        panic!("not completed: {payload:?}")
    };
    // The tool's result exactly: what a call without a task answers.
    let tools = registry();
    let pending = tools
        .call(
            &ToolContext::new(Effects::default()),
            "render",
            json!({"name": "intro"}),
        )
        .await;
    let call_id = pending.pending_call_id().expect("a pending call");
    let direct = tools.pending().wait(call_id).await.expect("a result");
    assert_eq!(direct.model_text(), "rendered intro");
    assert_eq!(
        result["content"],
        json!([{"type": "text", "text": direct.model_text()}])
    );
    assert_ne!(result.get("isError"), Some(&json!(true)));
    // Run once, by Restate's worker, for the caller who asked.
    assert_eq!(effects.renders.load(Ordering::SeqCst), 1);
    assert_eq!(first_effects.renders.load(Ordering::SeqCst), 0);
    assert_eq!(second_effects.renders.load(Ordering::SeqCst), 0);
    let callers = effects.callers.lock().expect("unpoisoned").clone();
    assert_eq!(callers.len(), 1);
    assert!(callers[0].starts_with("t:"), "{callers:?}");

    // Another caller is told it does not exist.
    refused(&bob, &task_id).await;
    for client in [alice, bob] {
        client.cancel().await.expect("closed");
    }
    second.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2025_task_is_waited_for_and_listed_through_another_replica() {
    let (server, effects) = worker("mcp-2025").await;
    let (first, _) = replica(&server).await;
    let (second, _) = replica(&server).await;

    let alice_first = client(first.address, "alice-secret", false).await;
    let created = request_2025(
        &alice_first,
        "tools/call",
        json!({"name": "render", "arguments": {"name": "two"}, "task": {"ttl": 60000}}),
        Duration::from_secs(10),
    )
    .await
    .expect("a task");
    assert_eq!(created["task"]["status"], "working");
    let task_id = created["task"]["taskId"]
        .as_str()
        .expect("an id")
        .to_owned();
    alice_first.cancel().await.expect("closed");
    first.stop();

    let alice = client(second.address, "alice-secret", false).await;
    let bob = client(second.address, "bob-secret", false).await;
    // tasks/result waits for the run, then answers the call's result.
    let result = request_2025(
        &alice,
        "tasks/result",
        json!({"taskId": task_id}),
        Duration::from_secs(30),
    )
    .await
    .expect("a result");
    assert_eq!(result["content"][0]["text"], "rendered two");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
        task_id
    );
    assert_eq!(effects.renders.load(Ordering::SeqCst), 1);

    // Listed for its caller, completed; none for another.
    let listed = request_2025(&alice, "tasks/list", json!({}), Duration::from_secs(10))
        .await
        .expect("listed");
    let tasks = listed["tasks"].as_array().expect("tasks");
    assert_eq!(tasks.len(), 1, "{listed}");
    assert_eq!(tasks[0]["taskId"], task_id);
    assert_eq!(tasks[0]["status"], "completed");
    // Restate's times, in RFC 3339 as MCP says them.
    for time in ["createdAt", "lastUpdatedAt"] {
        let time = tasks[0][time].as_str().unwrap_or_default();
        let (date, clock) = time.split_once('T').unwrap_or_default();
        assert!(
            date.len() == 10 && clock.len() >= 9 && clock.ends_with('Z'),
            "{listed}"
        );
    }
    assert_eq!(
        request_2025(&bob, "tasks/list", json!({}), Duration::from_secs(10)).await,
        Ok(json!({"tasks": []}))
    );
    // Nor can another caller read, wait for or cancel it.
    for method in ["tasks/get", "tasks/result", "tasks/cancel"] {
        assert_eq!(
            request_2025(
                &bob,
                method,
                json!({"taskId": task_id}),
                Duration::from_secs(10)
            )
            .await,
            Err(unknown(&task_id)),
            "{method}"
        );
    }
    for client in [alice, bob] {
        client.cancel().await.expect("closed");
    }
    second.stop();
}

/// Waits until the worker has begun `count` exports: a cancel then finds
/// the tool's step running.
async fn begun(effects: &Effects, count: usize) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while effects.exporting.load(Ordering::SeqCst) < count {
        assert!(Instant::now() < deadline, "export {count} never began");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_task_stops_its_tool_and_ends_cancelled() {
    let (server, effects) = worker("mcp-cancel").await;
    let (replica, _) = replica(&server).await;
    let alice = client(replica.address, "alice-secret", true).await;
    let bob = client(replica.address, "bob-secret", true).await;

    let task_id = start(&alice, "export", "final").await;
    begun(&effects, 1).await;
    // Another caller cannot cancel it.
    match bob.cancel_task(CancelTaskParams::new(&task_id)).await {
        Err(ServiceError::McpError(error)) => {
            assert_eq!((error.code, error.message.into_owned()), unknown(&task_id));
        }
        other => panic!("not refused: {other:?}"),
    }
    alice
        .cancel_task(CancelTaskParams::new(&task_id))
        .await
        .expect("acknowledged");
    let (payload, message) = ended(&alice, &task_id).await;
    assert_eq!(payload, TaskPayload::Cancelled);
    assert_eq!(message.as_deref(), Some("cancelled"));
    // Restate's cancel reached the running tool's token: it stopped
    // before its export, well before its 30 s.
    assert_eq!(effects.exports.load(Ordering::SeqCst), 0);

    // 2025-11-25's tasks/cancel answers once the task has stopped.
    let alice_2025 = client(replica.address, "alice-secret", false).await;
    let created = request_2025(
        &alice_2025,
        "tools/call",
        json!({"name": "export", "arguments": {"name": "cut"}, "task": {}}),
        Duration::from_secs(10),
    )
    .await
    .expect("a task");
    let task_id = created["task"]["taskId"]
        .as_str()
        .expect("an id")
        .to_owned();
    begun(&effects, 2).await;
    let cancelled = request_2025(
        &alice_2025,
        "tasks/cancel",
        json!({"taskId": task_id}),
        Duration::from_secs(30),
    )
    .await
    .expect("cancelled");
    assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
    assert_eq!(effects.exports.load(Ordering::SeqCst), 0);
    for client in [alice, bob, alice_2025] {
        client.cancel().await.expect("closed");
    }
    replica.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retried_call_is_one_task_and_the_tool_runs_once() {
    let (server, effects) = worker("mcp-retried").await;
    let (replica, _) = replica(&server).await;
    let raw = RawSession::open(replica.address, "alice-secret").await;
    let call = |id: u64, name: &str| {
        json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "render", "arguments": {"name": name}, "task": {}},
        })
    };
    let task_of = |answer: &Value| {
        answer["result"]["task"]["taskId"]
            .as_str()
            .unwrap_or_else(|| panic!("not a task: {answer}"))
            .to_owned()
    };
    // The same request sent again (a client that lost the answer): the
    // same task.
    let first = task_of(&raw.request(&call(41, "intro")).await);
    let again = task_of(&raw.request(&call(41, "intro")).await);
    assert_eq!(again, first);
    let waited = raw
        .request(&json!({
            "jsonrpc": "2.0", "id": 43, "method": "tasks/result",
            "params": {"taskId": first},
        }))
        .await;
    assert_eq!(
        waited["result"]["content"][0]["text"], "rendered intro",
        "{waited}"
    );
    assert_eq!(effects.renders.load(Ordering::SeqCst), 1);
    // Another request, another task.
    let other = task_of(&raw.request(&call(42, "intro")).await);
    assert_ne!(other, first);
    replica.stop();
}
