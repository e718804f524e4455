//! A registry replaced while it is served: every connected client is told
//! `notifications/tools/list_changed` (a session over stdio-like pipes or
//! HTTP, a 2026-07-28 client's `subscriptions/listen`), lists the new
//! tools and calls them.

use std::net::SocketAddr;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, ProtocolVersion, ServerNotification, SubscriptionFilter};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, NotificationContext};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::json;
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::McpServer;

/// Add two numbers.
#[tool(read_only, tier = Observe)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Multiply two numbers.
#[tool(read_only, tier = Observe)]
fn multiply(a: i64, b: i64) -> i64 {
    a * b
}

/// A client that passes on each list change it hears.
struct Client {
    changed: mpsc::UnboundedSender<()>,
}

impl ClientHandler for Client {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.changed.send(());
    }
}

fn server() -> McpServer {
    McpServer::new(ToolRegistry::new().with(Add), ToolContext::new(()))
}

fn multiply_params() -> CallToolRequestParams {
    let serde_json::Value::Object(arguments) = json!({"a": 6, "b": 7}) else {
        unreachable!()
    };
    CallToolRequestParams::new("multiply").with_arguments(arguments)
}

/// Replaces the registry of `server` with one that also has `multiply`,
/// and checks that `client` heard of it and can call the new tool.
async fn replace_and_check(
    server: &McpServer,
    client: &rmcp::service::RunningService<RoleClient, Client>,
    changed: &mut mpsc::UnboundedReceiver<()>,
) {
    let names = |tools: Vec<rmcp::model::Tool>| {
        tools
            .into_iter()
            .map(|tool| tool.name.into_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(client.list_all_tools().await.expect("listed")),
        ["add"]
    );
    let replaced = server
        .replace_registry(ToolRegistry::new().with(Add).with(Multiply))
        .await;
    assert_eq!(replaced.names().collect::<Vec<_>>(), ["add"]);
    // Bounded, so that a server that never tells fails rather than hangs.
    let told = tokio::time::timeout(Duration::from_secs(10), changed.recv()).await;
    assert_eq!(told, Ok(Some(())), "the client is told");
    assert_eq!(
        names(client.list_all_tools().await.expect("listed")),
        ["add", "multiply"]
    );
    let result = client.call_tool(multiply_params()).await.expect("called");
    assert_eq!(result.content[0].as_text().expect("text").text, "42");
}

#[tokio::test]
async fn a_session_over_a_pipe_is_told_and_sees_the_new_tools() {
    let server = server();
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let serving = server.clone();
    tokio::spawn(async move {
        let running = serving.serve(server_io).await.expect("initialized");
        let _ = running.waiting().await;
    });
    let (sender, mut changed) = mpsc::unbounded_channel();
    let client = Client { changed: sender }
        .serve(client_io)
        .await
        .expect("initialized");
    let capabilities = &client.peer_info().expect("initialized").capabilities;
    assert_eq!(
        capabilities
            .tools
            .as_ref()
            .and_then(|tools| tools.list_changed),
        Some(true)
    );
    replace_and_check(&server, &client, &mut changed).await;
    client.cancel().await.expect("closed");
}

async fn serve_http(server: McpServer) -> (SocketAddr, CancellationToken) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let address = listener.local_addr().expect("bound");
    let stop = CancellationToken::new();
    let config = tool_mcp::http_config().with_cancellation_token(stop.clone());
    tokio::spawn(server.serve_http_with(listener, config));
    (address, stop)
}

#[tokio::test]
async fn an_http_session_is_told_and_sees_the_new_tools() {
    let server = server();
    let (address, stop) = serve_http(server.clone()).await;
    let (sender, mut changed) = mpsc::unbounded_channel();
    let transport = StreamableHttpClientTransport::from_uri(format!("http://{address}/mcp"));
    let client = Client { changed: sender }
        .serve(transport)
        .await
        .expect("initialized");
    replace_and_check(&server, &client, &mut changed).await;
    client.cancel().await.expect("closed");
    stop.cancel();
}

#[tokio::test]
async fn a_2026_client_listening_for_tool_changes_is_told() {
    let server = server();
    let (address, stop) = serve_http(server.clone()).await;
    let (sender, _unused) = mpsc::unbounded_channel();
    let transport = StreamableHttpClientTransport::from_uri(format!("http://{address}/mcp"));
    let client = Client { changed: sender }
        .serve_with_lifecycle(
            transport,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("discovered");
    assert_eq!(
        client.peer_info().expect("discovered").protocol_version,
        ProtocolVersion::V_2026_07_28
    );
    let mut subscription = client
        .peer()
        .listen(SubscriptionFilter::builder().tools_list_changed().build())
        .await
        .expect("listening");
    assert_eq!(subscription.acknowledged().tools_list_changed, Some(true));

    server
        .replace_registry(ToolRegistry::new().with(Add).with(Multiply))
        .await;
    let heard = tokio::time::timeout(Duration::from_secs(10), subscription.next())
        .await
        .expect("told in time")
        .expect("a notification");
    assert!(
        matches!(
            heard,
            Some(ServerNotification::ToolListChangedNotification(_))
        ),
        "{heard:?}"
    );
    let result = client.call_tool(multiply_params()).await.expect("called");
    assert_eq!(result.content[0].as_text().expect("text").text, "42");
    drop(subscription);
    client.cancel().await.expect("closed");
    stop.cancel();
}
