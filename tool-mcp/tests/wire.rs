//! The server's JSON-RPC as it is on the wire, read and written by hand
//! over an in-process pipe: exact answers, progress only for a request
//! that asked for it with a `progressToken`, and log lines at the levels
//! the client asked for.

use rmcp::ServiceExt;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};
use tool_core::observe::LogLevel;
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

/// Write a line at three levels.
#[tool(tier = Observe)]
fn chatty(ctx: &ToolContext) -> &'static str {
    ctx.log(LogLevel::Debug, "looking");
    ctx.log(LogLevel::Info, "found 3");
    ctx.log(LogLevel::Warning, "one is stale");
    "done"
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
    let server = McpServer::new(registry, ToolContext::new(()))
        .with_config(tool_mcp::McpConfig::new().with_server_info("wire", "0.0.1"));
    connect_to(server).await
}

async fn connect_to(server: McpServer) -> Wire {
    // Tools whose list may change, and tasks for `long_running` tools.
    let mut capabilities = json!({"logging": {}, "tools": {"listChanged": true}});
    if server
        .registry()
        .tools()
        .any(|tool| tool.metadata.long_running)
    {
        capabilities["extensions"] = json!({"io.modelcontextprotocol/tasks": {}});
    }
    connect_expecting(server, capabilities).await
}

/// Connects, and holds the server to declaring exactly `capabilities`.
async fn connect_expecting(server: McpServer, capabilities: Value) -> Wire {
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
    let server = McpServer::new(registry, ToolContext::new(()))
        .with_config(tool_mcp::McpConfig::new().with_server_info("wire", "0.0.1"));
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
        .with_config(tool_mcp::McpConfig::new().with_server_info("wire", "0.0.1"));
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

/// `notifications/message` of a line `chatty` writes.
fn line(level: &str, text: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/message",
        "params": {"level": level, "logger": "chatty", "data": text}})
}

#[tokio::test]
async fn log_lines_reach_the_client_at_the_levels_it_asked_for_before_the_answer() {
    let registry: ToolRegistry = ToolRegistry::new().with(Chatty);
    let server = McpServer::new(registry, ToolContext::new(()))
        .with_config(tool_mcp::McpConfig::new().with_server_info("wire", "0.0.1"));
    let mut wire = connect_to(server).await;
    let done = |id: i64| {
        json!({"jsonrpc": "2.0", "id": id, "result": {
            "content": [{"type": "text", "text": "done"}], "isError": false
        }})
    };
    let call = |id: i64, meta: Value| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "chatty", "arguments": {}, "_meta": meta}})
    };
    // A session that set no level is sent every line.
    wire.send(call(1, json!({}))).await;
    assert_eq!(
        wire.until_response(1).await,
        [
            line("debug", "looking"),
            line("info", "found 3"),
            line("warning", "one is stale"),
            done(1)
        ]
    );
    wire.send(
        json!({"jsonrpc": "2.0", "id": 2, "method": "logging/setLevel",
        "params": {"level": "warning"}}),
    )
    .await;
    assert_eq!(
        wire.until_response(2).await,
        [json!({"jsonrpc": "2.0", "id": 2, "result": {}})]
    );
    wire.send(call(3, json!({}))).await;
    assert_eq!(
        wire.until_response(3).await,
        [line("warning", "one is stale"), done(3)]
    );
    // A request's own level (2026-07-28's `_meta`) is its alone.
    wire.send(call(4, json!({"io.modelcontextprotocol/logLevel": "info"})))
        .await;
    assert_eq!(
        wire.until_response(4).await,
        [
            line("info", "found 3"),
            line("warning", "one is stale"),
            done(4)
        ]
    );
    wire.send(call(5, json!({}))).await;
    assert_eq!(
        wire.until_response(5).await,
        [line("warning", "one is stale"), done(5)]
    );
}

/// A file of notes, and notes by day.
struct Notes;

impl tool_core::resource::Resource for Notes {
    fn uri(&self) -> &str {
        "notes://{day}"
    }

    fn name(&self) -> &str {
        "notes"
    }

    fn description(&self) -> &str {
        "The notes of a day."
    }

    fn read<'a>(
        &'a self,
        _ctx: &'a ToolContext,
        read: &'a tool_core::resource::ResourceRead,
    ) -> tool_core::BoxFuture<
        'a,
        Result<Vec<tool_core::resource::ResourceContents>, tool_core::resource::ResourceError>,
    > {
        Box::pin(async move {
            match read.param("day") {
                Some("monday") => Ok(vec![tool_core::resource::ResourceContents::text(
                    read.uri(),
                    "buy milk",
                )]),
                _ => Err(tool_core::resource::ResourceError::not_found(read.uri())),
            }
        })
    }
}

/// Greet someone by name.
struct Greeting;

impl tool_core::prompt::Prompt for Greeting {
    fn name(&self) -> &str {
        "greeting"
    }

    fn description(&self) -> &str {
        "Greet someone by name."
    }

    fn arguments(&self) -> Vec<tool_core::prompt::PromptArgument> {
        vec![tool_core::prompt::PromptArgument::required(
            "name",
            "Whom to greet.",
        )]
    }

    fn get<'a>(
        &'a self,
        _ctx: &'a ToolContext,
        arguments: &'a tool_core::prompt::PromptArguments,
    ) -> tool_core::BoxFuture<
        'a,
        Result<Vec<tool_core::prompt::PromptMessage>, tool_core::prompt::PromptError>,
    > {
        Box::pin(async move {
            Ok(vec![tool_core::prompt::PromptMessage::user(format!(
                "Say hello to {}.",
                arguments["name"]
            ))])
        })
    }
}

#[tokio::test]
async fn resources_and_prompts_are_read_and_refused_exactly() {
    let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()))
        .with_resources(tool_core::resource::Resources::new().with(Notes))
        .with_prompts(tool_core::prompt::Prompts::new().with(Greeting))
        .with_config(tool_mcp::McpConfig::new().with_server_info("wire", "0.0.1"));
    let capabilities = json!({
        "logging": {}, "completions": {}, "prompts": {"listChanged": true},
        "resources": {"subscribe": true, "listChanged": true},
        "tools": {"listChanged": true}
    });
    let mut wire = connect_expecting(server, capabilities).await;
    let request = |id: i64, method: &str, params: Value| json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    wire.send(request(1, "resources/templates/list", json!({})))
        .await;
    assert_eq!(
        wire.until_response(1).await,
        [
            json!({"jsonrpc": "2.0", "id": 1, "result": {"resourceTemplates": [
                {"uriTemplate": "notes://{day}", "name": "notes", "description": "The notes of a day."}
            ]}})
        ]
    );
    wire.send(request(
        2,
        "resources/read",
        json!({"uri": "notes://monday"}),
    ))
    .await;
    assert_eq!(
        wire.until_response(2).await,
        [json!({"jsonrpc": "2.0", "id": 2, "result": {"contents": [
            {"uri": "notes://monday", "text": "buy milk"}
        ]}})]
    );
    wire.send(request(
        3,
        "resources/read",
        json!({"uri": "notes://sunday"}),
    ))
    .await;
    assert_eq!(
        wire.until_response(3).await,
        [json!({"jsonrpc": "2.0", "id": 3, "error": {
            "code": -32002, "message": "no resource at `notes://sunday`",
            "data": {"uri": "notes://sunday"}
        }})]
    );
    wire.send(request(
        4,
        "prompts/get",
        json!({"name": "greeting", "arguments": {"name": "Ada"}}),
    ))
    .await;
    assert_eq!(
        wire.until_response(4).await,
        [json!({"jsonrpc": "2.0", "id": 4, "result": {
            "description": "Greet someone by name.",
            "messages": [{"role": "user", "content": {"type": "text", "text": "Say hello to Ada."}}]
        }})]
    );
    wire.send(request(5, "prompts/get", json!({"name": "greeting"})))
        .await;
    assert_eq!(
        wire.until_response(5).await,
        [json!({"jsonrpc": "2.0", "id": 5, "error": {
            "code": -32602, "message": "prompt `greeting` needs the argument `name`"
        }})]
    );
    wire.send(request(6, "prompts/get", json!({"name": "greet"})))
        .await;
    assert_eq!(
        wire.until_response(6).await,
        [json!({"jsonrpc": "2.0", "id": 6, "error": {
            "code": -32602, "message": "no prompt is named `greet`; the prompts are `greeting`"
        }})]
    );
}

#[tokio::test]
async fn a_session_subscribed_to_a_resource_is_told_when_it_changes() {
    let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()))
        .with_resources(tool_core::resource::Resources::new().with(Notes))
        .with_config(tool_mcp::McpConfig::new().with_server_info("wire", "0.0.1"));
    let capabilities = json!({
        "logging": {}, "completions": {}, "resources": {"subscribe": true, "listChanged": true},
        "tools": {"listChanged": true}
    });
    let mut wire = connect_expecting(server.clone(), capabilities).await;
    wire.send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "resources/subscribe",
        "params": {"uri": "notes://monday"}}),
    )
    .await;
    assert_eq!(
        wire.until_response(1).await,
        [json!({"jsonrpc": "2.0", "id": 1, "result": {}})]
    );
    server.resource_updated("notes://tuesday").await;
    server.resource_updated("notes://monday").await;
    wire.send(json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}))
        .await;
    assert_eq!(
        wire.until_response(2).await,
        [
            json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
                "params": {"uri": "notes://monday"}}),
            json!({"jsonrpc": "2.0", "id": 2, "result": {}})
        ]
    );
    wire.send(
        json!({"jsonrpc": "2.0", "id": 3, "method": "resources/unsubscribe",
        "params": {"uri": "notes://monday"}}),
    )
    .await;
    wire.until_response(3).await;
    server.resource_updated("notes://monday").await;
    wire.send(json!({"jsonrpc": "2.0", "id": 4, "method": "ping"}))
        .await;
    assert_eq!(
        wire.until_response(4).await,
        [json!({"jsonrpc": "2.0", "id": 4, "result": {}})]
    );
}

/// Render the video; only ever as a task.
#[tool(tier = Observe, long_running, tasks_only)]
async fn render_video() -> &'static str {
    "rendered"
}

#[tokio::test]
async fn a_tool_that_runs_only_as_a_task_is_refused_to_a_client_that_cannot_follow_one() {
    let registry: ToolRegistry = ToolRegistry::new().with(RenderVideo);
    let server = McpServer::new(registry, ToolContext::new(()))
        .with_config(tool_mcp::McpConfig::new().with_server_info("wire", "0.0.1"));
    let mut wire = connect_to(server).await;
    wire.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "render_video", "arguments": {}}}))
        .await;
    assert_eq!(
        wire.until_response(1).await,
        [json!({"jsonrpc": "2.0", "id": 1, "error": {
            "code": -32601,
            "message": "tool `render_video` runs only as a task, and this call cannot be one: the client did not declare the tasks extension (`io.modelcontextprotocol/tasks`), nor call it with `task`"
        }})]
    );
}
