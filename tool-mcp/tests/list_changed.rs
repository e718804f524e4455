//! A registry replaced while it is served: every connected client is told
//! `notifications/tools/list_changed` (a session over stdio-like pipes or
//! HTTP, a 2026-07-28 client's `subscriptions/listen`), lists the new
//! tools and calls them; and a server that follows a `RegistryHandle`
//! tells each change made through it.

use std::time::Duration;

use rmcp::model::{CallToolRequestParams, ServerNotification, SubscriptionFilter};
use rmcp::service::NotificationContext;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::json;
use support::{connect_2026, serve_http};
use tokio::sync::mpsc;
use tool_core::registry::OnDuplicate;
use tool_core::toolset::RegistryHandle;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::McpServer;

mod support;

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

/// A client of `server` over stdio-like pipes, and the list changes it
/// hears.
async fn connect_on_a_pipe(
    server: &McpServer,
) -> (
    rmcp::service::RunningService<RoleClient, Client>,
    mpsc::UnboundedReceiver<()>,
) {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let serving = server.clone();
    tokio::spawn(async move {
        let running = serving.serve(server_io).await.expect("initialized");
        let _ = running.waiting().await;
    });
    let (sender, changed) = mpsc::unbounded_channel();
    let client = Client { changed: sender }
        .serve(client_io)
        .await
        .expect("initialized");
    (client, changed)
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
    let (client, mut changed) = connect_on_a_pipe(&server).await;
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
    let client = connect_2026(Client { changed: sender }, address).await;
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

#[tokio::test]
async fn a_server_following_a_handle_serves_and_tells_each_change() {
    let handle = RegistryHandle::new(ToolRegistry::new().with(Add));
    let server = McpServer::following(&handle, ToolContext::new(()));
    let (client, mut changed) = connect_on_a_pipe(&server).await;
    let names = async || -> Vec<String> {
        let tools = client.list_all_tools().await.expect("listed");
        tools
            .into_iter()
            .map(|tool| tool.name.into_owned())
            .collect()
    };
    assert_eq!(names().await, ["add"]);
    // Each change, told and served: added, disabled, removed.
    handle.insert(Multiply, OnDuplicate::Error).expect("added");
    let told = tokio::time::timeout(Duration::from_secs(10), changed.recv()).await;
    assert_eq!(told, Ok(Some(())), "told of the new tool");
    assert_eq!(names().await, ["add", "multiply"]);
    let product = client.call_tool(multiply_params()).await.expect("called");
    assert_eq!(product.structured_content, None);
    assert_eq!(
        product.content[0].as_text().map(|text| text.text.as_str()),
        Some("42")
    );
    assert!(handle.disable("add"));
    let told = tokio::time::timeout(Duration::from_secs(10), changed.recv()).await;
    assert_eq!(told, Ok(Some(())), "told of the disabled tool");
    assert_eq!(names().await, ["multiply"]);
    assert!(handle.remove("multiply"));
    let told = tokio::time::timeout(Duration::from_secs(10), changed.recv()).await;
    assert_eq!(told, Ok(Some(())), "told of the removed tool");
    assert_eq!(names().await, Vec::<String>::new());
    client.cancel().await.expect("closed");
}
