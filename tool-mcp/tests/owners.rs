//! Two clients making the very same call each have a call of their own:
//! two bearer tokens starting tasks of one tool with identical arguments
//! get a run each, under their own caller, and cancelling one leaves the
//! other running.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::{
    CallToolResponse, CancelTaskParams, ClientCapabilities, ClientConfig, GetTaskParams,
    Implementation, TaskPayload,
};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::json;
use support::serve_http;
use tokio::sync::Notify;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::{BearerTokens, McpServer};

mod support;

#[derive(Default)]
struct App {
    runs: AtomicU32,
    release: Notify,
}

/// Export a report, once released.
#[tool(long_running, concurrency_safe, tier = Observe, timeout = "1h")]
async fn export(
    ctx: &ToolContext<App>,
    /// The report.
    report: String,
) -> String {
    let run = ctx.state().runs.fetch_add(1, Ordering::SeqCst) + 1;
    tokio::select! {
        () = ctx.state().release.notified() => format!("run {run} exported {report}"),
        () = ctx.cancellation().cancelled() => "stopped".to_owned(),
    }
}

/// Say who calls.
#[tool(read_only)]
fn whoami(ctx: &ToolContext<App>) -> String {
    ctx.caller().unwrap_or("no one").to_owned()
}

fn server(app: &Arc<App>) -> McpServer<App> {
    let registry = ToolRegistry::new().with(Export).with(Whoami);
    McpServer::new(registry, ToolContext::from_arc(Arc::clone(app)))
}

async fn client(address: SocketAddr, token: &str) -> RunningService<RoleClient, ClientConfig> {
    let config = StreamableHttpClientTransportConfig::with_uri(format!("http://{address}/mcp"))
        .auth_header(token);
    ClientConfig::new(
        ClientCapabilities::builder().enable_tasks().build(),
        Implementation::new("task-client", "1.0.0"),
    )
    .serve(StreamableHttpClientTransport::from_config(config))
    .await
    .expect("initialized")
}

async fn start(client: &RunningService<RoleClient, ClientConfig>) -> String {
    let Some(arguments) = json!({"report": "q3"}).as_object().cloned() else {
        panic!("an object")
    };
    let params = rmcp::model::CallToolRequestParams::new("export").with_arguments(arguments);
    match client.call_tool_once(params).await {
        Ok(CallToolResponse::Task(created)) => created.task.task_id,
        other => panic!("not a task: {other:?}"),
    }
}

/// The task's payload once it has left `Working`.
async fn ended(client: &RunningService<RoleClient, ClientConfig>, task_id: &str) -> TaskPayload {
    for _ in 0..1000 {
        let got = client
            .get_task(GetTaskParams::new(task_id))
            .await
            .expect("the task exists");
        if !matches!(got.task.payload, TaskPayload::Working) {
            return got.task.payload;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("task {task_id} never ended")
}

fn text(payload: &TaskPayload) -> String {
    let TaskPayload::Completed { result } = payload else {
        panic!("not completed: {payload:?}")
    };
    result["content"][0]["text"]
        .as_str()
        .expect("a text block")
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_tokens_making_the_same_call_get_a_run_each() {
    let app = Arc::new(App::default());
    let tokens = BearerTokens::new()
        .with_token("alice-secret", Vec::<String>::new())
        .with_token("bob-secret", Vec::<String>::new());
    let (address, stop) =
        serve_http(server(&app).with_config(tool_mcp::McpConfig::new().with_bearer_auth(tokens)))
            .await;
    let alice = client(address, "alice-secret").await;
    let bob = client(address, "bob-secret").await;

    let alices = start(&alice).await;
    let bobs = start(&bob).await;
    for _ in 0..500 {
        if app.runs.load(Ordering::SeqCst) == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(app.runs.load(Ordering::SeqCst), 2, "a run for each");

    // Bob gives up: his call is cancelled, Alice's goes on.
    bob.cancel_task(CancelTaskParams::new(&bobs))
        .await
        .expect("his task");
    app.release.notify_one();
    let alice_text = text(&ended(&alice, &alices).await);
    assert!(
        ["run 1 exported q3", "run 2 exported q3"].contains(&alice_text.as_str()),
        "{alice_text}"
    );
    for client in [alice, bob] {
        client.cancel().await.expect("closed");
    }
    stop.cancel();
}

/// The caller a tool sees is the request's token (hashed), the same over
/// any connection made with it, and never another token's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_token_is_the_caller_of_its_calls() {
    let app = Arc::new(App::default());
    let tokens = BearerTokens::new()
        .with_token("alice-secret", Vec::<String>::new())
        .with_token("bob-secret", Vec::<String>::new());
    let (address, stop) =
        serve_http(server(&app).with_config(tool_mcp::McpConfig::new().with_bearer_auth(tokens)))
            .await;
    let whoami = async |client: &RunningService<RoleClient, ClientConfig>| {
        let result = client
            .call_tool(rmcp::model::CallToolRequestParams::new("whoami"))
            .await
            .expect("answered");
        result.content[0]
            .as_text()
            .expect("a text block")
            .text
            .clone()
    };
    let alice = client(address, "alice-secret").await;
    let alice_again = client(address, "alice-secret").await;
    let bob = client(address, "bob-secret").await;
    let (a, a2, b) = (
        whoami(&alice).await,
        whoami(&alice_again).await,
        whoami(&bob).await,
    );
    assert!(a.starts_with("t:") && a.len() == 66, "{a}");
    assert_eq!(a, a2, "one token, one caller");
    assert_ne!(a, b);
    for client in [alice, alice_again, bob] {
        client.cancel().await.expect("closed");
    }
    stop.cancel();
}
