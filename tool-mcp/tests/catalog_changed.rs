//! Resources and prompts replaced while they are served, and a resource
//! updated, told exactly as MCP says: a 2025-11-25 session is told of the
//! lists its capabilities said change, in its stream; a 2026-07-28
//! `subscriptions/listen` stream only of what it asked for and the server
//! accepted, the URIs it serves among them.

use std::time::Duration;

use raw::Raw;
use serde_json::{Value, json};
use support::serve_http;
use tokio::sync::mpsc;
use tool_core::prompt::Prompts;
use tool_core::resource::Resources;
use tool_core::{ToolContext, ToolRegistry, prompt, resource};
use tool_mcp::McpServer;

mod support;

#[path = "support/raw.rs"]
mod raw;

/// What changed, release by release.
#[resource(uri = "docs://changelog")]
fn changelog() -> &'static str {
    "## 1.0"
}

/// What comes next.
#[resource(uri = "docs://roadmap")]
fn roadmap() -> &'static str {
    "## 2.0"
}

/// The notes of a day.
#[resource(uri = "notes://{day}")]
fn notes(day: String) -> String {
    format!("nothing on {day}")
}

/// Greet someone.
#[prompt]
fn greet(
    /// Whom to greet.
    name: String,
) -> String {
    format!("Say hello to {name}.")
}

/// Take leave of someone.
#[prompt]
fn farewell(
    /// Whom to take leave of.
    name: String,
) -> String {
    format!("Say goodbye to {name}.")
}

fn server() -> McpServer {
    McpServer::new(ToolRegistry::new(), ToolContext::new(()))
        .with_resources(Resources::new().with(Changelog).with(Notes))
        .with_prompts(Prompts::new().with(Greet))
}

/// The resources with the roadmap published.
fn more_resources() -> Resources {
    Resources::new().with(Changelog).with(Notes).with(Roadmap)
}

/// The prompts with a farewell.
fn more_prompts() -> Prompts {
    Prompts::new().with(Greet).with(Farewell)
}

/// The JSON-RPC messages of an event stream, as they come.
fn messages(mut response: reqwest::Response) -> mpsc::UnboundedReceiver<Value> {
    let (sender, receiver) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut pending: Vec<u8> = Vec::new();
        while let Ok(Some(chunk)) = response.chunk().await {
            pending.extend_from_slice(&chunk);
            while let Some(end) = pending.iter().position(|byte| *byte == b'\n') {
                let line: Vec<u8> = pending.drain(..=end).collect();
                let line = String::from_utf8_lossy(&line);
                // An event without data (an SSE priming event) is none.
                let Some(data) = line.trim_end().strip_prefix("data:") else {
                    continue;
                };
                if let Ok(message) = serde_json::from_str::<Value>(data.trim())
                    && sender.send(message).is_err()
                {
                    return;
                }
            }
        }
    });
    receiver
}

/// The next message, in time: a server that never tells fails, rather
/// than hangs.
async fn next(messages: &mut mpsc::UnboundedReceiver<Value>) -> Value {
    tokio::time::timeout(Duration::from_secs(10), messages.recv())
        .await
        .expect("told in time")
        .expect("the stream is open")
}

/// A 2025-11-25 session opened over HTTP: its id, and the capabilities it
/// was given.
async fn open_session(raw: &Raw) -> (String, Value) {
    let opened = raw
        .post(
            &[],
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#,
        )
        .await;
    assert_eq!(opened.status, 200, "{opened:?}");
    let id = opened
        .header("mcp-session-id")
        .expect("a session id")
        .to_owned();
    let capabilities = opened.answer()["result"]["capabilities"].clone();
    let initialized = raw
        .post(
            &in_session(&id),
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        )
        .await;
    assert_eq!(initialized.status, 202, "{initialized:?}");
    (id, capabilities)
}

fn in_session(id: &str) -> [(&str, &str); 2] {
    [
        ("mcp-session-id", id),
        ("mcp-protocol-version", "2025-11-25"),
    ]
}

/// The messages session `id` is sent unasked, in its stream (`GET`).
async fn unasked(address: std::net::SocketAddr, id: &str) -> mpsc::UnboundedReceiver<Value> {
    let stream = reqwest::Client::new()
        .get(format!("http://{address}/mcp"))
        .header("accept", "text/event-stream")
        .header("mcp-session-id", id)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .expect("the server answers");
    assert_eq!(stream.status().as_u16(), 200);
    messages(stream)
}

/// A 2026-07-28 `subscriptions/listen` as request `id`, asking for
/// `notifications`: the messages of its stream.
async fn listen(
    address: std::net::SocketAddr,
    id: u64,
    notifications: Value,
) -> mpsc::UnboundedReceiver<Value> {
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen", "params": {
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"}
        },
        "notifications": notifications
    }});
    let response = reqwest::Client::new()
        .post(format!("http://{address}/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "subscriptions/listen")
        .body(body.to_string())
        .send()
        .await
        .expect("the server answers");
    assert_eq!(response.status().as_u16(), 200);
    messages(response)
}

/// The acknowledgment of listen request `id`, accepting `notifications`.
fn acknowledged(id: u64, notifications: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {
        "_meta": {"io.modelcontextprotocol/subscriptionId": id},
        "notifications": notifications
    }})
}

/// Notification `method` on the stream of listen request `id`.
fn on_stream(id: u64, method: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": {
        "_meta": {"io.modelcontextprotocol/subscriptionId": id}
    }})
}

/// `notifications/resources/updated` of `uri` on the stream of listen
/// request `id`.
fn updated_on_stream(id: u64, uri: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {
        "_meta": {"io.modelcontextprotocol/subscriptionId": id},
        "uri": uri
    }})
}

#[tokio::test]
async fn a_2025_session_is_told_that_resources_and_prompts_changed() {
    let server = server();
    let (address, stop) = serve_http(server.clone()).await;
    let raw = Raw::new(address);
    let (id, capabilities) = open_session(&raw).await;
    assert_eq!(
        capabilities,
        json!({
            "completions": {}, "logging": {},
            "prompts": {"listChanged": true},
            "resources": {"listChanged": true, "subscribe": true},
            "tools": {"listChanged": true}
        })
    );
    let mut told = unasked(address, &id).await;

    let before = server.replace_resources(more_resources()).await;
    assert_eq!(before.len(), 2);
    assert_eq!(
        next(&mut told).await,
        json!({"jsonrpc": "2.0", "method": "notifications/resources/list_changed"})
    );
    let before = server.replace_prompts(more_prompts()).await;
    assert_eq!(before.len(), 1);
    assert_eq!(
        next(&mut told).await,
        json!({"jsonrpc": "2.0", "method": "notifications/prompts/list_changed"})
    );
    // Listed again, the new ones are there.
    let listed = raw
        .post(
            &in_session(&id),
            r#"{"jsonrpc":"2.0","id":2,"method":"resources/list"}"#,
        )
        .await
        .answer();
    let uris: Vec<&str> = listed["result"]["resources"]
        .as_array()
        .expect("resources")
        .iter()
        .filter_map(|resource| resource["uri"].as_str())
        .collect();
    assert_eq!(uris, ["docs://changelog", "docs://roadmap"]);
    let listed = raw
        .post(
            &in_session(&id),
            r#"{"jsonrpc":"2.0","id":3,"method":"prompts/list"}"#,
        )
        .await
        .answer();
    let names: Vec<&str> = listed["result"]["prompts"]
        .as_array()
        .expect("prompts")
        .iter()
        .filter_map(|prompt| prompt["name"].as_str())
        .collect();
    assert_eq!(names, ["greet", "farewell"]);
    stop.cancel();
}

#[tokio::test]
async fn a_2025_session_is_not_told_of_a_list_its_capabilities_left_out() {
    let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()))
        .with_resources(Resources::new().with(Changelog));
    let (address, stop) = serve_http(server.clone()).await;
    let raw = Raw::new(address);
    let (id, capabilities) = open_session(&raw).await;
    assert_eq!(capabilities.get("prompts"), None);
    let mut told = unasked(address, &id).await;
    // Prompts now, which the session was not told the server has.
    server.replace_prompts(more_prompts()).await;
    server.replace_resources(more_resources()).await;
    assert_eq!(
        next(&mut told).await,
        json!({"jsonrpc": "2.0", "method": "notifications/resources/list_changed"})
    );
    stop.cancel();
}

#[tokio::test]
async fn a_listen_stream_is_told_only_the_list_changes_it_asked_for() {
    let server = server();
    let (address, stop) = serve_http(server.clone()).await;
    let mut resources_only = listen(address, 1, json!({"resourcesListChanged": true})).await;
    assert_eq!(
        next(&mut resources_only).await,
        acknowledged(1, json!({"resourcesListChanged": true}))
    );
    let mut prompts_only = listen(address, 2, json!({"promptsListChanged": true})).await;
    assert_eq!(
        next(&mut prompts_only).await,
        acknowledged(2, json!({"promptsListChanged": true}))
    );

    server.replace_resources(more_resources()).await;
    server.replace_prompts(more_prompts()).await;
    server.replace_registry(ToolRegistry::new()).await;
    server
        .replace_resources(Resources::new().with(Changelog))
        .await;
    // Each stream's messages come in order: what it did not ask for would
    // be between those it did.
    assert_eq!(
        next(&mut resources_only).await,
        on_stream(1, "notifications/resources/list_changed")
    );
    assert_eq!(
        next(&mut resources_only).await,
        on_stream(1, "notifications/resources/list_changed")
    );
    assert_eq!(
        next(&mut prompts_only).await,
        on_stream(2, "notifications/prompts/list_changed")
    );
    server.replace_prompts(Prompts::new()).await;
    assert_eq!(
        next(&mut prompts_only).await,
        on_stream(2, "notifications/prompts/list_changed")
    );
    stop.cancel();
}

#[tokio::test]
async fn a_listen_stream_is_told_of_the_resources_it_subscribed_to() {
    let server = server();
    let (address, stop) = serve_http(server.clone()).await;
    let mut subscribed = listen(
        address,
        7,
        json!({"resourceSubscriptions": ["notes://monday", "docs://changelog"]}),
    )
    .await;
    assert_eq!(
        next(&mut subscribed).await,
        acknowledged(
            7,
            json!({"resourceSubscriptions": ["notes://monday", "docs://changelog"]})
        )
    );

    server.resource_updated("notes://tuesday").await;
    server.resource_updated("notes://monday").await;
    server.replace_resources(more_resources()).await;
    server.resource_updated("docs://roadmap").await;
    server.resource_updated("docs://changelog").await;
    assert_eq!(
        next(&mut subscribed).await,
        updated_on_stream(7, "notes://monday")
    );
    assert_eq!(
        next(&mut subscribed).await,
        updated_on_stream(7, "docs://changelog")
    );
    stop.cancel();
}

#[tokio::test]
async fn a_uri_the_server_does_not_serve_is_left_out_of_the_accepted_filter() {
    let server = server();
    let (address, stop) = serve_http(server.clone()).await;
    // `notes://{day}` takes no `/`; nothing is at `files://`.
    let mut subscribed = listen(
        address,
        3,
        json!({
            "resourcesListChanged": true,
            "resourceSubscriptions": ["files://a", "notes://monday", "notes://monday/evening"]
        }),
    )
    .await;
    assert_eq!(
        next(&mut subscribed).await,
        acknowledged(
            3,
            json!({"resourcesListChanged": true, "resourceSubscriptions": ["notes://monday"]})
        )
    );
    let mut none_served = listen(address, 4, json!({"resourceSubscriptions": ["files://a"]})).await;
    assert_eq!(next(&mut none_served).await, acknowledged(4, json!({})));

    server.resource_updated("files://a").await;
    server.resource_updated("notes://monday/evening").await;
    server.resource_updated("notes://monday").await;
    assert_eq!(
        next(&mut subscribed).await,
        updated_on_stream(3, "notes://monday")
    );
    stop.cancel();
}

#[tokio::test]
async fn a_server_without_prompts_accepts_no_prompt_changes() {
    let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()))
        .with_resources(Resources::new().with(Changelog));
    let (address, stop) = serve_http(server.clone()).await;
    let mut listening = listen(
        address,
        5,
        json!({"promptsListChanged": true, "toolsListChanged": true}),
    )
    .await;
    assert_eq!(
        next(&mut listening).await,
        acknowledged(5, json!({"toolsListChanged": true}))
    );
    stop.cancel();
}
