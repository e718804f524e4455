//! A served registry that shows its deferred tools as a search finds them
//! (`McpConfig::with_search`): `tools/list` shows the tools up front, the
//! search tool among them; a search that finds tools tells the client
//! `notifications/tools/list_changed`, and its next `tools/list` shows
//! them; another session still sees only what it found.

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

    let serde_json::Value::Object(arguments) = json!({"query": "weather in a city"}) else {
        unreachable!()
    };
    let found = first
        .call_tool(CallToolRequestParams::new("search_tools").with_arguments(arguments))
        .await
        .expect("called");
    assert_eq!(
        found.content[0].as_text().map(|text| text.text.as_str()),
        Some("`get_weather`: Get the current weather for a city.")
    );
    tokio::time::timeout(Duration::from_secs(5), changed.recv())
        .await
        .expect("told in time")
        .expect("told");
    assert_eq!(
        listed(&first).await,
        ["get_weather", "hello", "search_tools"]
    );

    // Another session found nothing yet.
    let (second, _) = client(&url).await;
    assert_eq!(listed(&second).await, ["hello", "search_tools"]);
}
