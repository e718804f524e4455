//! A server behind an OAuth authorization server, as the MCP authorization
//! specification asks: its protected resource metadata at both well-known
//! paths, a 401 that points to it, and a 403 naming the scope a call
//! needs, so that a client can ask the user for it.

use std::error::Error as _;
use std::net::SocketAddr;

use serde_json::json;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::{BearerTokens, McpServer, ProtectedResource, ServeError};

#[path = "support/raw.rs"]
mod raw;

use raw::Raw;

/// Read a private file.
#[tool(read_only, tier = Observe, scopes = ["files:read"])]
fn secret() -> &'static str {
    "the secret"
}

/// Say hello.
#[tool(read_only, tier = Observe)]
fn hello() -> &'static str {
    "hello"
}

/// The tokens an authorization server would have issued.
fn tokens() -> BearerTokens {
    BearerTokens::new()
        .with_token("guest-token", ["mcp:tools"])
        .with_token("reader-token", ["mcp:tools", "files:read"])
}

/// Serves the tools as a protected resource at its own URL; gives the
/// address and the metadata's URL.
async fn serve() -> (SocketAddr, String, CancellationToken) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let address = listener.local_addr().expect("bound");
    let resource = ProtectedResource::new(format!("http://{address}/mcp"))
        .authorization_server("https://auth.example.com/realms/tools")
        .scopes(["mcp:tools", "files:read"]);
    let metadata_url = resource.metadata_url().expect("valid");
    let server = McpServer::new(
        ToolRegistry::<()>::new().with(Secret).with(Hello),
        ToolContext::new(()),
    )
    .with_config(tool_mcp::McpConfig::new().with_protected_resource(resource, tokens()));
    let stop = CancellationToken::new();
    let config = tool_mcp::http_config().with_cancellation_token(stop.clone());
    tokio::spawn(server.serve_http_with(listener, config));
    (address, metadata_url, stop)
}

fn call(tool: &str) -> String {
    json!({
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": tool, "arguments": {}},
    })
    .to_string()
}

#[tokio::test]
async fn the_metadata_is_served_at_both_well_known_paths() {
    let (address, metadata_url, stop) = serve().await;
    let raw = Raw::new(address);
    assert_eq!(
        metadata_url,
        format!("http://{address}/.well-known/oauth-protected-resource/mcp")
    );

    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let reply = raw.get(path).await;
        assert_eq!(reply.status, 200, "{path}");
        assert_eq!(reply.header("content-type"), Some("application/json"));
        assert_eq!(
            reply.body,
            format!(
                r#"{{"resource":"http://{address}/mcp","authorization_servers":["https://auth.example.com/realms/tools"],"bearer_methods_supported":["header"],"scopes_supported":["mcp:tools","files:read"]}}"#
            ),
            "{path}"
        );
    }
    let other = raw.get("/.well-known/oauth-protected-resource/other").await;
    assert_eq!((other.status, other.body.as_str()), (404, "Not Found"));

    stop.cancel();
}

#[tokio::test]
async fn a_request_without_a_valid_token_is_pointed_to_the_metadata() {
    let (address, metadata_url, stop) = serve().await;
    let raw = Raw::new(address);

    let missing = raw.initialize(&[]).await;
    assert_eq!(missing.status, 401);
    assert_eq!(
        missing.header("www-authenticate"),
        Some(
            format!(r#"Bearer resource_metadata="{metadata_url}", scope="mcp:tools files:read""#)
                .as_str()
        )
    );
    assert_eq!(
        missing.body,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Unauthorized: an access token from the authorization server is required"}}"#
    );

    let refused = raw
        .initialize(&[("authorization", "Bearer expired-token")])
        .await;
    assert_eq!(refused.status, 401);
    assert_eq!(
        refused.header("www-authenticate"),
        Some(
            format!(
                r#"Bearer error="invalid_token", error_description="the access token is not valid", resource_metadata="{metadata_url}", scope="mcp:tools files:read""#
            )
            .as_str()
        )
    );
    assert_eq!(
        refused.body,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Unauthorized: the access token is not valid"}}"#
    );

    stop.cancel();
}

#[tokio::test]
async fn a_call_needing_a_scope_the_token_lacks_is_forbidden_with_the_scope_to_ask_for() {
    let (address, metadata_url, stop) = serve().await;
    let raw = Raw::new(address);
    let guest = [("authorization", "Bearer guest-token")];
    let session = raw.open_session(&guest).await;
    let in_session = [
        guest[0],
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-06-18"),
    ];

    let forbidden = raw.post(&in_session, &call("secret")).await;
    assert_eq!(forbidden.status, 403);
    assert_eq!(
        forbidden.header("www-authenticate"),
        Some(
            format!(
                r#"Bearer error="insufficient_scope", scope="mcp:tools files:read", resource_metadata="{metadata_url}", error_description="tool `secret` requires the scope `files:read`, which this token does not grant""#
            )
            .as_str()
        )
    );
    assert_eq!(
        forbidden.body,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Forbidden: tool `secret` requires the scope `files:read`, which this token does not grant"}}"#
    );

    // A tool needing no scope, and a tool that does not exist, are MCP's.
    let hello = raw.post(&in_session, &call("hello")).await;
    assert_eq!(hello.status, 200);
    assert_eq!(hello.answer()["result"]["content"][0]["text"], "hello");
    let unknown = raw.post(&in_session, &call("nothing")).await;
    assert_eq!(unknown.status, 200);
    assert_eq!(unknown.answer()["error"]["code"], -32602);

    // With the scope, the call is made.
    let reader = [("authorization", "Bearer reader-token")];
    let session = raw.open_session(&reader).await;
    let in_session = [
        reader[0],
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-06-18"),
    ];
    let answered = raw.post(&in_session, &call("secret")).await;
    assert_eq!(answered.status, 200);
    assert_eq!(
        answered.answer()["result"]["content"][0]["text"],
        "the secret"
    );

    stop.cancel();
}

#[tokio::test]
async fn invalid_settings_stop_serving_before_it_starts() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(())).with_config(
        tool_mcp::McpConfig::new().with_protected_resource(
            ProtectedResource::new("https://tools.example.com/mcp")
                .authorization_server("auth.example.com"),
            tokens(),
        ),
    );
    let error = server.serve_http(listener).await.expect_err("refused");
    assert!(matches!(error, ServeError::InvalidProtectedResource { .. }));
    assert_eq!(
        error.to_string(),
        "the protected resource's settings are invalid: the authorization server `auth.example.com` is not an absolute http or https URL"
    );
    assert!(error.source().is_none());
}
