//! What the HTTP server answers besides MCP: another path, and a `Host`
//! that is not loopback (rmcp's guard against DNS rebinding, kept on); and
//! when a `tools/call`'s answer goes: whole for a call that ends at once,
//! its head and priming event at once for a call that waits.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
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
