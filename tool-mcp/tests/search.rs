//! A served registry that shows its deferred tools as a search finds them
//! (`McpConfig::with_search`): `tools/list` shows the tools up front, the
//! search tool among them; a search that finds tools tells the client
//! `notifications/tools/list_changed`, and its next `tools/list` shows
//! them; another session still sees only what it found. Past a threshold
//! (`McpConfig::with_auto_defer`), the tools not marked wait too.

use std::time::Duration;

use rmcp::model::CallToolRequestParams;
use rmcp::service::{NotificationContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::json;
use support::serve_http;
use tokio::sync::mpsc;
use tool_core::search::SearchTool;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::McpServer;

mod support;

/// Get the current weather for a city.
#[tool(defer, read_only, tier = Observe)]
fn get_weather(
    /// The city.
    city: String,
) -> String {
    format!("sunny in {city}")
}

/// Open an issue in a repository's tracker.
#[tool(defer, tier = Observe)]
fn create_issue(repo: String, title: String) -> String {
    format!("opened `{title}` in {repo}")
}

/// Say hello.
#[tool(read_only, tier = Observe)]
fn hello() -> String {
    "hello".into()
}

struct Client {
    changed: mpsc::UnboundedSender<()>,
}

impl ClientHandler for Client {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.changed.send(());
    }
}

async fn client(
    url: &str,
) -> (
    RunningService<RoleClient, Client>,
    mpsc::UnboundedReceiver<()>,
) {
    let (sender, changed) = mpsc::unbounded_channel();
    let client = Client { changed: sender }
        .serve(StreamableHttpClientTransport::from_uri(url))
        .await
        .expect("initialized");
    (client, changed)
}

async fn listed(client: &RunningService<RoleClient, Client>) -> Vec<String> {
    let mut names: Vec<String> = client
        .list_all_tools()
        .await
        .expect("listed")
        .into_iter()
        .map(|tool| tool.name.to_string())
        .collect();
    names.sort();
    names
}

/// `client` searches for `query`, and is told its tool list changed.
async fn search_for(
    client: &RunningService<RoleClient, Client>,
    changed: &mut mpsc::UnboundedReceiver<()>,
    query: &str,
) -> rmcp::model::CallToolResult {
    let serde_json::Value::Object(arguments) = json!({ "query": query }) else {
        unreachable!()
    };
    let found = client
        .call_tool(CallToolRequestParams::new("search_tools").with_arguments(arguments))
        .await
        .expect("called");
    tokio::time::timeout(Duration::from_secs(5), changed.recv())
        .await
        .expect("told in time")
        .expect("told");
    found
}

#[tokio::test]
async fn deferred_tools_are_listed_once_a_search_found_them() {
    let tools: ToolRegistry = ToolRegistry::new()
        .with(GetWeather)
        .with(CreateIssue)
        .with(Hello);
    let search = SearchTool::new(tools.tools());
    let server = McpServer::new(tools.with(search), ToolContext::new(()))
        .with_config(tool_mcp::McpConfig::new().with_search());
    let (address, _stop) = serve_http(server).await;
    let url = format!("http://{address}/mcp");
    let (first, mut changed) = client(&url).await;
    assert_eq!(listed(&first).await, ["hello", "search_tools"]);

    let found = search_for(&first, &mut changed, "weather in a city").await;
    assert_eq!(
        found.content[0].as_text().map(|text| text.text.as_str()),
        Some("`get_weather`: Get the current weather for a city.")
    );
    assert_eq!(
        listed(&first).await,
        ["get_weather", "hello", "search_tools"]
    );

    // Another session found nothing yet.
    let (second, _) = client(&url).await;
    assert_eq!(listed(&second).await, ["hello", "search_tools"]);
}

/// A tool of a large catalog, `tool_NN`, none marked `defer`.
struct Numbered(String);

impl tool_core::Tool for Numbered {
    fn name(&self) -> &str {
        &self.0
    }
    fn description(&self) -> &str {
        "Look up a record by its number."
    }
    fn input_schema(&self) -> serde_json::Value {
        json!({"type": "object", "properties": {"id": {"type": "string"}}})
    }
    fn call<'a>(
        &'a self,
        _: &'a ToolContext,
        _: serde_json::Value,
    ) -> tool_core::BoxFuture<'a, tool_core::ToolResult> {
        Box::pin(async { tool_core::ToolResult::text("done") })
    }
}

/// `size` numbered tools, `get_weather` (marked `defer`) and the search.
fn numbered(size: usize) -> ToolRegistry {
    let mut tools: ToolRegistry = ToolRegistry::new();
    for at in 0..size {
        tools = tools.with(Numbered(format!("tool_{at:02}")));
    }
    let tools = tools.with(GetWeather);
    let search = SearchTool::new(tools.tools());
    tools.with(search)
}

#[tokio::test]
async fn past_30_tools_the_server_lists_the_search_and_five_until_more_are_found() {
    let auto = tool_mcp::McpConfig::new().with_auto_defer(tool_core::toolset::AutoDefer::new());
    let server = McpServer::new(numbered(30), ToolContext::new(())).with_config(auto);
    let (address, _stop) = serve_http(server).await;
    let (large, mut changed) = client(&format!("http://{address}/mcp")).await;
    // 31 tools besides the search: past 30.
    assert_eq!(
        listed(&large).await,
        [
            "search_tools",
            "tool_00",
            "tool_01",
            "tool_02",
            "tool_03",
            "tool_04"
        ]
    );
    search_for(&large, &mut changed, "weather in a city").await;
    // What it found is listed beside them, the rest still waits.
    assert_eq!(
        listed(&large).await,
        [
            "get_weather",
            "search_tools",
            "tool_00",
            "tool_01",
            "tool_02",
            "tool_03",
            "tool_04"
        ]
    );

    // 30 tools besides the search: listed as with search alone.
    let auto = tool_mcp::McpConfig::new().with_auto_defer(tool_core::toolset::AutoDefer::new());
    let server = McpServer::new(numbered(29), ToolContext::new(())).with_config(auto);
    let (address, _stop) = serve_http(server).await;
    let (small, _) = client(&format!("http://{address}/mcp")).await;
    let every = listed(&small).await;
    assert_eq!(every.len(), 30, "29 numbered and the search: {every:?}");
    assert!(!every.contains(&"get_weather".to_owned()), "marked `defer`");
}
