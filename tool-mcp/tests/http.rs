//! What the HTTP server answers besides MCP: another path, and a `Host`
//! that is not loopback (rmcp's guard against DNS rebinding, kept on).

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use tool_core::{ToolContext, ToolRegistry};
use tool_mcp::McpServer;
use tool_mcp::rmcp_types::StreamableHttpServerConfig;

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
