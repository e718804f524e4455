//! A registry served over MCP, checked with rmcp's own client, in process
//! over a duplex pipe and over streamable HTTP on a loopback port.

use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientRequest, ErrorCode, JsonObject,
    PaginatedRequestParams, ProgressNotificationParam, Request, ServerResult,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RunningService};
use rmcp::transport::{StreamableHttpClientTransport, StreamableHttpServerConfig};
use rmcp::{ClientHandler, RoleClient, ServiceError, ServiceExt};
use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc};
use tokio_util::sync::CancellationToken;
use tool_core::output::Image;
use tool_core::provider::Provider;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::McpServer;

/// What the slow tool tells the test: that it started, and how it ended.
#[derive(Default)]
struct App {
    started: Notify,
    ended: Mutex<Option<mpsc::UnboundedSender<bool>>>,
}

/// Add two numbers.
#[tool(read_only, tier = Observe, title = "Add")]
fn add(
    /// The first.
    a: i64,
    /// The second.
    b: i64,
) -> i64 {
    a + b
}

#[derive(Serialize)]
struct WordCount {
    words: usize,
}

/// Count the words of a text.
#[tool(read_only, tier = Observe, output_schema = json!({
    "type": "object",
    "properties": {"words": {"type": "integer"}},
    "required": ["words"]
}))]
fn stats(
    /// The text.
    text: String,
) -> WordCount {
    WordCount {
        words: text.split_whitespace().count(),
    }
}

/// Draw a tiny chart.
#[tool(read_only, tier = Observe)]
fn chart() -> Image {
    Image::png(vec![1, 2, 3])
}

/// Index the documents, reporting each.
#[tool(tier = Observe)]
fn index(
    ctx: &ToolContext<App>,
    /// The documents.
    documents: Vec<String>,
) -> usize {
    for (done, document) in documents.iter().enumerate() {
        let total = documents.len() as f64;
        ctx.progress((done + 1) as f64, Some(total), document.as_str());
    }
    documents.len()
}

/// Wait until cancelled.
#[tool(tier = Observe, timeout = "1h")]
async fn slow(ctx: &ToolContext<App>) -> &'static str {
    ctx.state().started.notify_one();
    ctx.cancellation().cancelled().await;
    let ended = ctx
        .state()
        .ended
        .lock()
        .expect("no test panicked holding it")
        .clone();
    if let Some(ended) = ended {
        let _ = ended.send(ctx.is_cancelled());
    }
    "stopped"
}

fn registry() -> ToolRegistry<App> {
    ToolRegistry::new()
        .with(Add)
        .with(Stats)
        .with(Chart)
        .with(Index)
        .with(Slow)
}

/// A client that passes on the progress it hears.
struct Client {
    progress: mpsc::UnboundedSender<ProgressNotificationParam>,
}

impl ClientHandler for Client {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.progress.send(params);
    }
}

struct Setup {
    server: McpServer<App>,
    app: Arc<App>,
    client: Client,
    progress: mpsc::UnboundedReceiver<ProgressNotificationParam>,
}

fn setup() -> Setup {
    let app = Arc::new(App::default());
    let server = McpServer::new(registry(), ToolContext::from_arc(Arc::clone(&app))).with_config(
        tool_mcp::McpConfig::new()
            .with_server_info("test-tools", "1.2.3")
            .with_instructions("Tools for tests.")
            .with_page_size(2),
    );
    let (sender, progress) = mpsc::unbounded_channel();
    Setup {
        server,
        app,
        client: Client { progress: sender },
        progress,
    }
}

fn arguments(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

async fn call(
    client: &RunningService<RoleClient, Client>,
    name: &str,
    args: Value,
) -> Result<CallToolResult, ServiceError> {
    let params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments(args));
    client.call_tool(params).await
}

fn texts(result: &CallToolResult) -> Vec<String> {
    result
        .content
        .iter()
        .map(|block| {
            serde_json::to_value(block).expect("a block is JSON")["text"]
                .as_str()
                .expect("a text block")
                .to_owned()
        })
        .collect()
}

/// Everything a client sees, over whichever transport connected it.
async fn exercise(
    client: &RunningService<RoleClient, Client>,
    app: &App,
    progress: mpsc::UnboundedReceiver<ProgressNotificationParam>,
) {
    sees_the_server_info(client);
    lists_the_tools(client).await;
    calls_the_tools(client).await;
    reads_every_kind_of_answer(client).await;
    hears_progress(client, progress).await;
    cancels(client, app).await;
}

/// `initialize`: the server's name, version, capabilities and
/// instructions.
fn sees_the_server_info(client: &RunningService<RoleClient, Client>) {
    let info = client.peer_info().expect("initialized");
    let server_info = info.server_info.as_ref().expect("server info");
    assert_eq!(
        (&*server_info.name, &*server_info.version),
        ("test-tools", "1.2.3")
    );
    assert!(info.capabilities.tools.is_some());
    assert_eq!(info.instructions.as_deref(), Some("Tools for tests."));
}

/// `tools/list`: tool-core's MCP definitions, two a page.
async fn lists_the_tools(client: &RunningService<RoleClient, Client>) {
    let first = client.list_tools(None).await.expect("the server answers");
    let names: Vec<_> = first
        .tools
        .iter()
        .map(|tool| tool.name.to_string())
        .collect();
    assert_eq!(names, ["add", "stats"]);
    assert_eq!(first.next_cursor.as_deref(), Some("2"));
    assert_eq!(first.tools[0].title.as_deref(), Some("Add"));
    let all = client.list_all_tools().await.expect("the server answers");
    let definitions = Provider::Mcp
        .definitions(&registry())
        .expect("MCP takes every tool");
    assert_eq!(
        serde_json::to_value(&all).expect("tools are JSON"),
        *definitions.as_json()
    );
    assert_eq!(
        serde_json::to_value(&all[0].input_schema).expect("a schema is JSON"),
        json!({
            "type": "object",
            "properties": {
                "a": {"description": "The first.", "type": "integer"},
                "b": {"description": "The second.", "type": "integer"}
            },
            "required": ["a", "b"],
            "additionalProperties": false
        })
    );
    assert!(all[1].output_schema.is_some());
    let bad_cursor = PaginatedRequestParams::default().with_cursor(Some("x".into()));
    match client.list_tools(Some(bad_cursor)).await {
        Err(ServiceError::McpError(error)) => {
            assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
            assert_eq!(error.message, "invalid cursor: not one this server gave");
        }
        other => panic!("expected invalid params, got {other:?}"),
    }
}

/// `tools/call` with arguments that fit or not.
async fn calls_the_tools(client: &RunningService<RoleClient, Client>) {
    // A valid call.
    let sum = call(client, "add", json!({"a": 2, "b": 3}))
        .await
        .expect("the server answers");
    assert_eq!(texts(&sum), ["5"]);
    assert_eq!(sum.is_error, Some(false));
    assert_eq!(sum.structured_content, None);

    // Arguments that do not fit: the pipeline's own text, as a result.
    let ctx = ToolContext::new(App::default());
    for bad in [json!({}), json!({"a": "two", "b": 3})] {
        let result = call(client, "add", bad.clone())
            .await
            .expect("the server answers");
        let expected = registry().call(&ctx, "add", bad).await;
        assert_eq!(result.is_error, Some(true));
        assert_eq!(texts(&result), [expected.model_text().into_owned()]);
    }
    let missing = call(client, "add", json!({}))
        .await
        .expect("the server answers");
    assert_eq!(
        texts(&missing),
        [
            "invalid arguments for tool `add`: missing argument `a`; missing argument `b`. Correct the arguments and call the tool again."
        ]
    );
    let mistyped = call(client, "add", json!({"a": "two", "b": 3}))
        .await
        .expect("the request is sent");
    assert_eq!(
        texts(&mistyped),
        [
            "invalid arguments for tool `add`: argument `a` at `/a`: expected an integer, got a string `two`. Correct the arguments and call the tool again."
        ]
    );
}

/// An unknown tool, structured content, an image.
async fn reads_every_kind_of_answer(client: &RunningService<RoleClient, Client>) {
    // An unknown tool: JSON-RPC's invalid params.
    match call(client, "nope", json!({})).await {
        Err(ServiceError::McpError(error)) => {
            assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
            assert_eq!(
                error.message,
                "unknown tool `nope`. Available tools: `add`, `stats`, `chart`, `index`, `slow`."
            );
        }
        other => panic!("expected invalid params, got {other:?}"),
    }

    // Structured content beside its text.
    let counted = call(client, "stats", json!({"text": "one two three"}))
        .await
        .expect("the request is sent");
    assert_eq!(counted.structured_content, Some(json!({"words": 3})));
    assert_eq!(texts(&counted), ["{\"words\":3}"]);

    // An image: an image block.
    let drawn = call(client, "chart", json!({}))
        .await
        .expect("the server answers");
    assert_eq!(
        serde_json::to_value(&drawn.content).expect("blocks are JSON"),
        json!([{"type": "image", "data": "AQID", "mimeType": "image/png"}])
    );
}

/// Progress, under the request's token, before the response.
async fn hears_progress(
    client: &RunningService<RoleClient, Client>,
    mut progress: mpsc::UnboundedReceiver<ProgressNotificationParam>,
) {
    let request = ClientRequest::CallToolRequest(Request::new(
        CallToolRequestParams::new("index")
            .with_arguments(arguments(json!({"documents": ["a.md", "b.md"]}))),
    ));
    let handle = client
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .expect("the request is sent");
    let token = handle.progress_token.clone();
    let response = handle.await_response().await.expect("a response");
    let ServerResult::CallToolResult(indexed) = response else {
        panic!("not a CallToolResult: {response:?}");
    };
    assert_eq!(texts(&indexed), ["2"]);
    let expected = [(1.0, "a.md"), (2.0, "b.md")];
    for (done, message) in expected {
        let heard = progress.recv().await.expect("a progress notification");
        assert_eq!(heard.progress_token, token);
        assert_eq!(heard.progress, done);
        assert_eq!(heard.total, Some(2.0));
        assert_eq!(heard.message.as_deref(), Some(message));
    }
}

/// Cancellation: the slow tool's token is cancelled, and it ends.
async fn cancels(client: &RunningService<RoleClient, Client>, app: &App) {
    let (ended, mut ending) = mpsc::unbounded_channel();
    *app.ended.lock().expect("no test panicked holding it") = Some(ended);
    let request = ClientRequest::CallToolRequest(Request::new(
        CallToolRequestParams::new("slow").with_arguments(JsonObject::new()),
    ));
    let handle = client
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .expect("the request is sent");
    app.started.notified().await;
    handle
        .cancel(Some("no longer needed".into()))
        .await
        .expect("the request is sent");
    assert_eq!(ending.recv().await, Some(true));
}

#[tokio::test]
async fn a_client_in_process_sees_the_registry() {
    let Setup {
        server,
        app,
        client,
        progress,
    } = setup();
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let serving = tokio::spawn(async move {
        let running = server.serve(server_io).await.unwrap();
        running.waiting().await.unwrap()
    });
    let client = client.serve(client_io).await.unwrap();
    exercise(&client, &app, progress).await;
    client.cancel().await.unwrap();
    serving.await.unwrap();
}

#[tokio::test]
async fn a_client_over_http_sees_the_registry() {
    let Setup {
        server,
        app,
        client,
        progress,
    } = setup();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let stop = CancellationToken::new();
    let config = StreamableHttpServerConfig::default().with_cancellation_token(stop.clone());
    let serving = tokio::spawn(server.serve_http_with(listener, config));
    let transport = StreamableHttpClientTransport::from_uri(format!("http://{address}/mcp"));
    let client = client.serve(transport).await.unwrap();
    exercise(&client, &app, progress).await;
    client.cancel().await.unwrap();
    stop.cancel();
    serving.await.unwrap().unwrap();
}
