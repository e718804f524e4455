//! The server's JSON-RPC as it is on the wire, read and written by hand
//! over an in-process pipe: exact answers, and progress only for a request
//! that asked for it with a `progressToken`.

use rmcp::ServiceExt;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::McpServer;

/// Count to `to`, reporting each step.
#[tool(tier = Observe)]
fn count(
    ctx: &ToolContext,
    /// Where to stop.
    to: u8,
) -> u8 {
    for step in 1..=to {
        ctx.progress(f64::from(step), Some(f64::from(to)), None);
    }
    to
}

/// Build the report in the background.
#[tool(tier = Observe, long_running)]
async fn report() -> &'static str {
    "the report is ready"
}

/// Read a private file.
#[tool(tier = Observe, scopes = ["files:read"])]
fn secret() -> &'static str {
    "the secret"
}

/// A client that writes requests and reads every message, in order.
struct Wire {
    write: tokio::io::WriteHalf<DuplexStream>,
    lines: Lines<BufReader<tokio::io::ReadHalf<DuplexStream>>>,
}

impl Wire {
    async fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.write
            .write_all(line.as_bytes())
            .await
            .expect("the server reads");
    }

    /// Every message up to and including the response to `id`.
    async fn until_response(&mut self, id: i64) -> Vec<Value> {
        let mut messages = Vec::new();
        loop {
            let line = self
                .lines
                .next_line()
                .await
                .expect("readable")
                .expect("a message");
            let message: Value = serde_json::from_str(&line).expect("JSON");
            let done = message["id"] == id;
            messages.push(message);
            if done {
                return messages;
            }
        }
    }
}

async fn connect() -> Wire {
    let registry: ToolRegistry = ToolRegistry::new().with(Count);
    let server = McpServer::new(registry, ToolContext::new(())).with_server_info("wire", "0.0.1");
    connect_to(server).await
}

async fn connect_to(server: McpServer) -> Wire {
    // Tools whose list may change, and tasks for `long_running` tools.
    let mut capabilities = json!({"tools": {"listChanged": true}});
    if server
        .registry()
        .tools()
        .any(|tool| tool.metadata.long_running)
    {
        capabilities["extensions"] = json!({"io.modelcontextprotocol/tasks": {}});
    }
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let (read, write) = tokio::io::split(client_io);
    let mut wire = Wire {
        write,
        lines: BufReader::new(read).lines(),
    };
    wire.send(
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "wire", "version": "0"}
        }}),
    )
    .await;
    let answer = wire.until_response(0).await;
    assert_eq!(
        answer,
        [json!({"jsonrpc": "2.0", "id": 0, "result": {
            "protocolVersion": "2025-06-18",
            "capabilities": capabilities,
            "serverInfo": {"name": "wire", "version": "0.0.1"}
        }})]
    );
    wire.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    wire
}

#[tokio::test]
async fn progress_goes_only_to_a_request_with_a_progress_token() {
    let mut wire = connect().await;
    wire.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "count", "arguments": {"to": 2}}}))
        .await;
    assert_eq!(
        wire.until_response(1).await,
        [json!({"jsonrpc": "2.0", "id": 1, "result": {
            "content": [{"type": "text", "text": "2"}], "isError": false
        }})]
    );
    wire.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "count", "arguments": {"to": 2}, "_meta": {"progressToken": "t"}}}))
        .await;
    let progress = |done: f64| {
        json!({"jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": "t", "progress": done, "total": 2.0}})
    };
    assert_eq!(
        wire.until_response(2).await,
        [
            progress(1.0),
            progress(2.0),
            json!({"jsonrpc": "2.0", "id": 2, "result": {
                "content": [{"type": "text", "text": "2"}], "isError": false
            }}),
        ]
    );
}

#[tokio::test]
async fn the_answers_are_exact_on_the_wire() {
    let mut wire = connect().await;
    wire.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        .await;
    assert_eq!(
        wire.until_response(1).await,
        [json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{
            "name": "count",
            "description": "Count to `to`, reporting each step.",
            "inputSchema": {
                "type": "object",
                "properties": {"to": {
                    "description": "Where to stop.", "type": "integer",
                    "minimum": 0, "maximum": 255
                }},
                "required": ["to"],
                "additionalProperties": false
            }
        }]}})]
    );
    wire.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "count", "arguments": {"to": -1}}}))
        .await;
    assert_eq!(
        wire.until_response(2).await,
        [json!({"jsonrpc": "2.0", "id": 2, "result": {
            "content": [{"type": "text", "text": "invalid arguments for tool `count`: argument `to` at `/to`: must be at least 0, got -1. Correct the arguments and call the tool again."}],
            "isError": true
        }})]
    );
    wire.send(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "cont", "arguments": {}}}))
        .await;
    assert_eq!(
        wire.until_response(3).await,
        [json!({"jsonrpc": "2.0", "id": 3, "error": {
            "code": -32602,
            "message": "unknown tool `cont`. Did you mean `count`? Available tools: `count`."
        }})]
    );
}

/// The `text` of the only content block of the response to `id`.
async fn text_of(wire: &mut Wire, id: i64, name: &str) -> (Value, Value) {
    wire.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": name, "arguments": {}}}))
        .await;
    let answer = wire.until_response(id).await;
    let result = &answer[answer.len() - 1]["result"];
    (
        result["content"][0]["text"].clone(),
        result["isError"].clone(),
    )
}

#[tokio::test]
async fn a_long_running_tool_answers_with_its_result_not_a_pending_one() {
    let registry: ToolRegistry = ToolRegistry::new().with(Report);
    let server = McpServer::new(registry, ToolContext::new(())).with_server_info("wire", "0.0.1");
    let mut wire = connect_to(server).await;
    assert_eq!(
        text_of(&mut wire, 1, "report").await,
        (json!("the report is ready"), json!(false))
    );
}

#[tokio::test]
async fn each_request_runs_in_the_context_the_server_makes_for_it() {
    let registry = std::sync::Arc::new(ToolRegistry::<()>::new().with(Secret));
    let plain = McpServer::new(std::sync::Arc::clone(&registry), ToolContext::new(()))
        .with_server_info("wire", "0.0.1");
    let mut wire = connect_to(plain.clone()).await;
    assert_eq!(
        text_of(&mut wire, 1, "secret").await,
        (
            json!(
                "tool `secret` requires the scope `files:read`, which this caller does not have; do not call it again"
            ),
            json!(true)
        )
    );
    let granting =
        plain.with_context_fn(|_request| ToolContext::builder(()).scopes(["files:read"]).build());
    let mut wire = connect_to(granting).await;
    assert_eq!(
        text_of(&mut wire, 1, "secret").await,
        (json!("the secret"), json!(false))
    );
}
