//! Who may talk to the HTTP server: browser origins other than loopback are
//! refused, and with bearer tokens configured, a caller without a token it
//! accepts is refused before MCP, and a caller with one has exactly its
//! scopes.

use std::net::SocketAddr;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::{BearerTokens, McpServer};

#[path = "support/raw.rs"]
mod raw;

/// Read a private file.
#[tool(read_only, tier = Observe, scopes = ["files:read"])]
fn secret() -> &'static str {
    "the secret"
}

/// A running server, stopped by `stop`.
struct Serving {
    address: SocketAddr,
    stop: CancellationToken,
    task: JoinHandle<Result<(), tool_mcp::ServeError>>,
}

impl Serving {
    async fn start(server: McpServer) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback port");
        let address = listener.local_addr().expect("bound");
        let stop = CancellationToken::new();
        let config = tool_mcp::http_config().with_cancellation_token(stop.clone());
        let task = tokio::spawn(server.serve_http_with(listener, config));
        Self {
            address,
            stop,
            task,
        }
    }

    async fn stop(self) {
        self.stop.cancel();
        self.task.await.expect("the server task").expect("served");
    }

    /// The status line, the headers (lower-cased names) and the body of
    /// the answer to a POST of `initialize` with `headers` added.
    async fn post(&self, headers: &str) -> (String, Vec<(String, String)>, String) {
        let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
        // `Host: 127.0.0.1` unless `headers` name another.
        let names_host = headers
            .lines()
            .any(|line| line.to_ascii_lowercase().starts_with("host:"));
        let host = if names_host {
            ""
        } else {
            "Host: 127.0.0.1\r\n"
        };
        let request = format!(
            "POST /mcp HTTP/1.1\r\n{host}Content-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\n{headers}Content-Length: {}\r\n\
             Connection: close\r\n\r\n{body}",
            body.len()
        );
        let mut stream = TcpStream::connect(self.address)
            .await
            .expect("the server listens");
        stream.write_all(request.as_bytes()).await.expect("sent");
        // Only the head and a body of known length are read: an accepted
        // `initialize` may answer with an event stream kept open.
        let mut answer = Vec::new();
        let head_end = loop {
            let mut chunk = [0; 1024];
            let read = stream.read(&mut chunk).await.expect("readable");
            assert_ne!(read, 0, "the answer ended inside its head");
            answer.extend_from_slice(&chunk[..read]);
            if let Some(end) = answer.windows(4).position(|w| w == b"\r\n\r\n") {
                break end;
            }
        };
        let head = String::from_utf8(answer[..head_end].to_vec()).expect("a UTF-8 head");
        let mut lines = head.split("\r\n");
        let status = lines.next().unwrap_or_default().to_owned();
        let headers: Vec<(String, String)> = lines
            .filter_map(|line| line.split_once(": "))
            .map(|(name, value)| (name.to_ascii_lowercase(), value.to_owned()))
            .collect();
        let length = headers
            .iter()
            .find(|(name, _)| name == "content-length")
            .map_or(0, |(_, value)| value.parse().expect("a length"));
        let mut body = answer[head_end + 4..].to_vec();
        while body.len() < length {
            let mut chunk = [0; 1024];
            let read = stream.read(&mut chunk).await.expect("readable");
            assert_ne!(read, 0, "the answer ended inside its body");
            body.extend_from_slice(&chunk[..read]);
        }
        (
            status,
            headers,
            String::from_utf8(body).expect("a UTF-8 body"),
        )
    }

    /// An MCP client sending `token`.
    async fn client(&self, token: &str) -> RunningService<RoleClient, ()> {
        client_of(self.address, Some(token)).await
    }
}

/// An MCP client of the server at `address`, sending `token` if any.
async fn client_of(address: SocketAddr, token: Option<&str>) -> RunningService<RoleClient, ()> {
    let mut config = StreamableHttpClientTransportConfig::with_uri(format!("http://{address}/mcp"));
    if let Some(token) = token {
        config = config.auth_header(token);
    }
    ().serve(StreamableHttpClientTransport::from_config(config))
        .await
        .expect("the session starts")
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, value)| value.as_str())
}

fn server() -> McpServer {
    McpServer::new(ToolRegistry::<()>::new().with(Secret), ToolContext::new(()))
}

/// The text of a result's only block, and whether it is an error.
fn text(result: CallToolResult) -> (String, Option<bool>) {
    let [content] = &result.content[..] else {
        panic!("one content block: {result:?}");
    };
    let Some(text) = content.as_text() else {
        panic!("a text block: {result:?}");
    };
    (text.text.clone(), result.is_error)
}

#[tokio::test]
async fn only_loopback_browser_origins_are_accepted() {
    let serving = Serving::start(server()).await;

    let (status, _, body) = serving.post("Origin: https://attacker.example\r\n").await;
    assert_eq!(status, "HTTP/1.1 403 Forbidden");
    assert_eq!(body, "Forbidden: Origin header is not allowed");
    // A loopback host on another scheme than the allowed ones is foreign.
    let (status, _, _) = serving.post("Origin: ftp://localhost\r\n").await;
    assert_eq!(status, "HTTP/1.1 403 Forbidden");

    for origin in [
        "http://localhost:5173",
        "http://127.0.0.1",
        "https://[::1]:8443",
    ] {
        let (status, _, _) = serving.post(&format!("Origin: {origin}\r\n")).await;
        assert_eq!(status, "HTTP/1.1 200 OK", "{origin}");
    }
    let (status, _, _) = serving.post("").await;
    assert_eq!(status, "HTTP/1.1 200 OK", "without an Origin");

    serving.stop().await;
}

#[tokio::test]
async fn only_a_loopback_host_is_accepted() {
    let serving = Serving::start(server()).await;

    // A name that resolves here by DNS rebinding is still not this host.
    for host in ["attacker.example", "attacker.example:8080", "10.0.0.7"] {
        let (status, _, body) = serving.post(&format!("Host: {host}\r\n")).await;
        assert_eq!(status, "HTTP/1.1 403 Forbidden", "{host}");
        assert_eq!(body, "Forbidden: Host header is not allowed", "{host}");
    }
    for host in [
        "localhost",
        "localhost:8080",
        "127.0.0.1:3000",
        "[::1]:8080",
    ] {
        let (status, _, _) = serving.post(&format!("Host: {host}\r\n")).await;
        assert_eq!(status, "HTTP/1.1 200 OK", "{host}");
    }

    serving.stop().await;
}

#[tokio::test]
async fn without_a_token_it_accepts_the_request_is_unauthorized() {
    let tokens = BearerTokens::new().with_token("reader-secret", ["files:read"]);
    let serving =
        Serving::start(server().with_config(tool_mcp::McpConfig::new().with_bearer_auth(tokens)))
            .await;

    // A static token server names no metadata, which would send a client
    // into OAuth discovery, and says what to send instead.
    let (status, headers, body) = serving.post("").await;
    assert_eq!(status, "HTTP/1.1 401 Unauthorized");
    assert_eq!(
        header(&headers, "www-authenticate"),
        Some(
            r#"Bearer error_description="this server takes a static bearer token, not OAuth: send Authorization: Bearer <token>""#
        )
    );
    assert_eq!(header(&headers, "content-type"), Some("application/json"));
    assert_eq!(
        body,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Unauthorized: this server takes a static bearer token, not OAuth: send Authorization: Bearer <token>"}}"#
    );
    // Nor is there metadata to find where clients look for it.
    for path in [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
    ] {
        let reply = raw::Raw::new(serving.address).get(path).await;
        assert_eq!(
            (reply.status, reply.body.as_str()),
            (404, "Not Found"),
            "{path}"
        );
    }

    for refused in [
        "Bearer wrong-secret",
        "Bearer reader-secre",
        "Basic reader-secret",
    ] {
        let (status, headers, body) = serving.post(&format!("Authorization: {refused}\r\n")).await;
        assert_eq!(status, "HTTP/1.1 401 Unauthorized", "{refused}");
        assert_eq!(
            header(&headers, "www-authenticate"),
            Some(
                r#"Bearer error="invalid_token", error_description="the bearer token is not one this server accepts""#
            ),
            "{refused}"
        );
        assert_eq!(
            body,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Unauthorized: the bearer token is not one this server accepts"}}"#,
            "{refused}"
        );
    }

    let (status, _, _) = serving
        .post("Authorization: Bearer reader-secret\r\n")
        .await;
    assert_eq!(status, "HTTP/1.1 200 OK");

    serving.stop().await;
}

#[tokio::test]
async fn each_call_runs_with_its_tokens_scopes() {
    let tokens = BearerTokens::new()
        .with_token("reader-secret", ["files:read"])
        .with_token("guest-secret", Vec::<String>::new());
    // The base context's scopes are not a token holder's: only its own are.
    let server = McpServer::new(
        ToolRegistry::<()>::new().with(Secret),
        ToolContext::builder(()).scopes(["files:read"]).build(),
    )
    .with_config(tool_mcp::McpConfig::new().with_bearer_auth(tokens));
    let serving = Serving::start(server).await;
    let call = || CallToolRequestParams::new("secret");

    // Not shown to a caller without the scope; called anyway, refused.
    let guest = serving.client("guest-secret").await;
    let listed = guest.list_all_tools().await.expect("a listing");
    assert!(listed.is_empty(), "{listed:?}");
    let refused = guest.call_tool(call()).await.expect("a result");
    assert_eq!(
        text(refused),
        (
            "tool `secret` requires the scope `files:read`, which this caller does not have; do not call it again"
                .to_owned(),
            Some(true)
        )
    );

    let reader = serving.client("reader-secret").await;
    let listed = reader.list_all_tools().await.expect("a listing");
    assert_eq!(listed.len(), 1);
    let answered = reader.call_tool(call()).await.expect("a result");
    assert_eq!(text(answered), ("the secret".to_owned(), Some(false)));

    guest.cancel().await.expect("the guest leaves");
    reader.cancel().await.expect("the reader leaves");
    serving.stop().await;
}

#[tokio::test]
async fn a_service_mounted_elsewhere_still_gives_calls_only_their_tokens_scopes() {
    let tokens = BearerTokens::new().with_token("reader-secret", ["files:read"]);
    let server = McpServer::new(
        ToolRegistry::<()>::new().with(Secret),
        ToolContext::builder(()).scopes(["files:read"]).build(),
    )
    .with_config(tool_mcp::McpConfig::new().with_bearer_auth(tokens));
    // Served by hand, as a router of the user's own would: no 401 front.
    let service = server.http_service(tool_mcp::http_config());
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let address = listener.local_addr().expect("bound");
    let accepting = tokio::spawn(async move {
        loop {
            let (stream, _) = listener.accept().await.expect("a connection");
            let service = service.clone();
            tokio::spawn(async move {
                let handle = hyper::service::service_fn(move |request| {
                    let service = service.clone();
                    async move { Ok::<_, std::convert::Infallible>(service.handle(request).await) }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), handle)
                    .await;
            });
        }
    });

    let anonymous = client_of(address, None).await;
    assert_eq!(
        text(anonymous.call_tool(CallToolRequestParams::new("secret")).await.expect("a result")),
        (
            "tool `secret` requires the scope `files:read`, which this caller does not have; do not call it again"
                .to_owned(),
            Some(true)
        )
    );
    let wrong = client_of(address, Some("wrong-secret")).await;
    assert_eq!(
        text(
            wrong
                .call_tool(CallToolRequestParams::new("secret"))
                .await
                .expect("a result")
        ),
        (
            "tool `secret` requires the scope `files:read`, which this caller does not have; do not call it again"
                .to_owned(),
            Some(true)
        )
    );
    let reader = client_of(address, Some("reader-secret")).await;
    assert_eq!(
        text(
            reader
                .call_tool(CallToolRequestParams::new("secret"))
                .await
                .expect("a result")
        ),
        ("the secret".to_owned(), Some(false))
    );

    for client in [anonymous, wrong, reader] {
        client.cancel().await.expect("the client leaves");
    }
    accepting.abort();
}
