//! What the HTTP server answers besides MCP: another path, and a `Host`
//! that is not loopback (rmcp's guard against DNS rebinding, kept on); and
//! when a `tools/call`'s answer goes: whole for a call that ends at once,
//! its head and priming event at once for a call that waits, what the call
//! reported before it in order on the same stream either way.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tool_core::observe::LogLevel;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::McpServer;
use tool_mcp::rmcp_types::StreamableHttpServerConfig;

/// Opened by the test.
static GATE: Notify = Notify::const_new();

/// Wait for the gate to open.
#[tool(tier = Observe)]
async fn gated() -> &'static str {
    GATE.notified().await;
    "through the gate"
}

/// Add two numbers.
#[tool(tier = Observe)]
fn add(
    /// The first.
    a: i64,
    /// The second.
    b: i64,
) -> i64 {
    a + b
}

/// Report two steps and log each, at once.
#[tool(tier = Observe)]
fn steps(ctx: &ToolContext) -> &'static str {
    for step in 1..=2 {
        ctx.progress(f64::from(step), Some(2.0), None);
        ctx.log(LogLevel::Info, format!("step {step}"));
    }
    "stepped"
}

/// Report two steps and log each, waiting after each.
#[tool(tier = Observe)]
async fn paced(ctx: &ToolContext) -> &'static str {
    for step in 1..=2 {
        ctx.progress(f64::from(step), Some(2.0), None);
        ctx.log(LogLevel::Info, format!("step {step}"));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    "paced"
}

/// The status line and body of one HTTP/1.1 request sent as `request`.
async fn exchange(address: std::net::SocketAddr, request: &str) -> (String, String) {
    let mut stream = TcpStream::connect(address)
        .await
        .expect("the server listens");
    stream.write_all(request.as_bytes()).await.expect("sent");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.expect("an answer");
    let status = answer.lines().next().unwrap_or_default().to_owned();
    let body = answer
        .split("\r\n\r\n")
        .nth(1)
        .unwrap_or_default()
        .to_owned();
    (status, body)
}

#[tokio::test]
async fn other_paths_and_foreign_hosts_are_refused() {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let address = listener.local_addr().expect("bound");
    let stop = CancellationToken::new();
    let config = StreamableHttpServerConfig::default().with_cancellation_token(stop.clone());
    let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()));
    let serving = tokio::spawn(server.serve_http_with(listener, config));

    let elsewhere = "GET /other HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    assert_eq!(
        exchange(address, elsewhere).await,
        ("HTTP/1.1 404 Not Found".to_owned(), "Not Found".to_owned())
    );

    let body = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let foreign = format!(
        "POST /mcp HTTP/1.1\r\nHost: attacker.example\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let (status, body) = exchange(address, &foreign).await;
    assert_eq!(status, "HTTP/1.1 403 Forbidden");
    assert_eq!(body, "Forbidden: Host header is not allowed");

    stop.cancel();
    serving.await.expect("the server task").expect("served");
}

/// A POST of `body` to `url`, in `session` if any, as MCP clients post.
fn post(
    client: &reqwest::Client,
    url: &str,
    session: Option<&str>,
    body: &str,
) -> reqwest::RequestBuilder {
    let mut request = client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body.to_owned());
    if let Some(session) = session {
        request = request
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-11-25");
    }
    request
}

#[tokio::test]
async fn a_call_that_waits_sends_its_head_at_once_and_a_quick_one_its_answer_whole() {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let url = format!("http://{}/mcp", listener.local_addr().expect("bound"));
    let stop = CancellationToken::new();
    let config = StreamableHttpServerConfig::default().with_cancellation_token(stop.clone());
    let registry = ToolRegistry::new().with(Gated).with(Add);
    let server = McpServer::new(registry, ToolContext::new(()));
    let serving = tokio::spawn(server.serve_http_with(listener, config));
    let client = reqwest::Client::new();

    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
    let opened = post(&client, &url, None, initialize)
        .send()
        .await
        .expect("initialized");
    let session = opened.headers()["mcp-session-id"]
        .to_str()
        .expect("a session id")
        .to_owned();
    let _ = opened.bytes().await;
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let accepted = post(&client, &url, Some(&session), initialized)
        .send()
        .await
        .expect("accepted");
    assert_eq!(accepted.status(), 202);

    // Ends at once: the priming event and the answer.
    let quick = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}"#;
    let answered = post(&client, &url, Some(&session), quick)
        .send()
        .await
        .expect("answered");
    let body = answered.text().await.expect("a body");
    assert!(body.contains("retry: "), "a priming event: {body}");
    assert!(body.contains(r#""id":2,"result""#), "the answer: {body}");

    // Waits: the head and the priming event come while it waits.
    let waiting = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"gated","arguments":{}}}"#;
    let mut response = tokio::time::timeout(
        Duration::from_secs(10),
        post(&client, &url, Some(&session), waiting).send(),
    )
    .await
    .expect("the head comes while the call waits")
    .expect("a response");
    let first = tokio::time::timeout(Duration::from_secs(10), response.chunk())
        .await
        .expect("the priming event comes while the call waits")
        .expect("a readable body")
        .expect("an event");
    let first = String::from_utf8_lossy(&first).into_owned();
    assert!(first.contains("retry: "), "a priming event: {first}");
    assert!(
        !first.contains("through the gate"),
        "not yet answered: {first}"
    );
    GATE.notify_one();
    let rest = response.text().await.expect("the rest");
    assert!(rest.contains("through the gate"), "the answer: {rest}");

    stop.cancel();
    serving.await.expect("the server task").expect("served");
}

/// What an event stream's events say, in order: each notification's
/// method and the first of its `progress` or `data`, and `answer` for the
/// response.
fn events(body: &str) -> Vec<String> {
    body.lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .filter(|data| data.contains("\"jsonrpc\""))
        .map(|data| {
            let message: serde_json::Value = serde_json::from_str(data).expect("JSON");
            match message["method"].as_str() {
                Some(method) => {
                    let params = &message["params"];
                    format!(
                        "{method} {}",
                        params.get("progress").unwrap_or(&params["data"])
                    )
                }
                None => "answer".to_owned(),
            }
        })
        .collect()
}

#[tokio::test]
async fn what_a_call_reports_comes_before_its_answer_on_its_stream_in_order() {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let url = format!("http://{}/mcp", listener.local_addr().expect("bound"));
    let stop = CancellationToken::new();
    let config = StreamableHttpServerConfig::default().with_cancellation_token(stop.clone());
    let registry = ToolRegistry::new().with(Steps).with(Paced);
    let server = McpServer::new(registry, ToolContext::new(()));
    let serving = tokio::spawn(server.serve_http_with(listener, config));
    let client = reqwest::Client::new();
    let expected = [
        "notifications/progress 1.0",
        "notifications/message \"step 1\"",
        "notifications/progress 2.0",
        "notifications/message \"step 2\"",
        "answer",
    ];

    // 2026-07-28, outside any session: each request its own stream.
    for (id, tool) in [(1, "steps"), (2, "paced")] {
        let call = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{{}},"_meta":{{"progressToken":"p{id}","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{{"name":"raw","version":"0"}},"io.modelcontextprotocol/clientCapabilities":{{}},"io.modelcontextprotocol/logLevel":"info"}}}}}}"#
        );
        let answered = client
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/call")
            .header("mcp-name", tool)
            .body(call)
            .send()
            .await
            .expect("answered");
        let body = answered.text().await.expect("a body");
        assert_eq!(events(&body), expected, "{tool}: {body}");
    }

    // 2025-11-25, in a session.
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
    let opened = post(&client, &url, None, initialize)
        .send()
        .await
        .expect("initialized");
    let session = opened.headers()["mcp-session-id"]
        .to_str()
        .expect("a session id")
        .to_owned();
    let _ = opened.bytes().await;
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let accepted = post(&client, &url, Some(&session), initialized)
        .send()
        .await
        .expect("accepted");
    assert_eq!(accepted.status(), 202);
    for (id, tool) in [(3, "steps"), (4, "paced")] {
        let call = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{{}},"_meta":{{"progressToken":"p{id}"}}}}}}"#
        );
        let answered = post(&client, &url, Some(&session), &call)
            .send()
            .await
            .expect("answered");
        let body = answered.text().await.expect("a body");
        // rmcp sends a session's log lines on its own stream (GET), not
        // the request's: only progress is routed by its token.
        let mut on_stream = events(&body);
        on_stream.retain(|event| !event.starts_with("notifications/message"));
        assert_eq!(
            on_stream,
            [expected[0], expected[2], expected[4]],
            "{tool}: {body}"
        );
    }

    stop.cancel();
    serving.await.expect("the server task").expect("served");
}
