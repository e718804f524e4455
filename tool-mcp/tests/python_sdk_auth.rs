//! The official MCP Python SDK (`tests/sdk/mcp_auth_client.py`) against a
//! server that requires a token: with a static token in its HTTP client's
//! headers it connects, and without one it reports the server's text; as
//! an OAuth client it finds the authorization server through the
//! protected resource metadata, gets a token for the scopes the 401 names,
//! and on a 403 `insufficient_scope` gets one with the scope the call
//! needs, then makes the call.
//!
//! The SDK is the pinned `mcp` of `tests/sdk/requirements.txt`, which
//! `.ci/run` installs and names in `TOOL_SDK_PYTHON`; without it the tests
//! say on stderr that they were skipped.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::{BearerTokens, McpServer, ProtectedResource};

#[path = "../../tests/support/sdk_python.rs"]
mod sdk_python;

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

fn registry() -> ToolRegistry {
    ToolRegistry::new().with(Secret).with(Hello)
}

/// The tokens the stand-in authorization server issues, by the scopes
/// granted.
fn tokens() -> BearerTokens {
    BearerTokens::new()
        .with_token("guest-token", ["mcp:tools"])
        .with_token("reader-token", ["mcp:tools", "files:read"])
}

/// Serves `server` on `listener` until the token is cancelled.
fn serve(server: McpServer, listener: TcpListener) -> CancellationToken {
    let stop = CancellationToken::new();
    let config = tool_mcp::http_config().with_cancellation_token(stop.clone());
    tokio::spawn(server.serve_http_with(listener, config));
    stop
}

/// What the script reports, run on a thread of its own.
async fn run_client(python: PathBuf, args: Vec<String>) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/sdk/mcp_auth_client.py");
    let output = tokio::task::spawn_blocking(move || {
        Command::new(&python)
            .arg(&script)
            .args(&args)
            .output()
            .unwrap_or_else(|error| panic!("{}: cannot run: {error}", python.display()))
    })
    .await
    .expect("the client ran");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the MCP client failed ({}):\n{stderr}{stdout}",
        output.status
    );
    serde_json::from_str(&stdout).unwrap_or_else(|error| panic!("{error}: {stdout}"))
}

/// What the SDK reads from the server once connected with `secret`'s scope.
fn connected(secret: Value) -> Value {
    json!({
        "protocol_version": "2025-11-25",
        "tools": ["hello", "secret"],
        "hello": ["hello"],
        "secret": secret,
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn the_python_sdk_passes_a_static_token_in_its_headers() {
    let python = sdk_python::sdk_python(
        "the_python_sdk_passes_a_static_token_in_its_headers",
        "the MCP Python SDK is not run against a server with a static token",
    );
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let url = format!("http://{}/mcp", listener.local_addr().expect("bound"));
    let server = McpServer::new(registry(), ToolContext::new(()))
        .with_config(tool_mcp::McpConfig::new().with_bearer_auth(tokens()));
    let stop = serve(server, listener);

    let report = run_client(python, vec!["static".into(), url, "reader-token".into()]).await;
    assert_eq!(
        report,
        json!({
            "without_token": {
                "type": "MCPError",
                "message": "Unauthorized: this server takes a static bearer token, not OAuth: send Authorization: Bearer <token>",
            },
            "with_token": connected(json!({"isError": false, "text": ["the secret"]})),
        })
    );
    stop.cancel();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_python_sdk_finds_the_authorization_server_and_steps_up_its_scopes() {
    let python = sdk_python::sdk_python(
        "the_python_sdk_finds_the_authorization_server_and_steps_up_its_scopes",
        "the MCP Python SDK's OAuth is not run against a protected resource",
    );
    let (issuer, stop_issuer) = authorization_server().await;
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let url = format!("http://{}/mcp", listener.local_addr().expect("bound"));
    // A token for the server as a whole asks for `mcp:tools`; `files:read`
    // is asked for when a tool needs it.
    let resource = ProtectedResource::new(&url)
        .authorization_server(&issuer)
        .scopes(["mcp:tools"]);
    let server = McpServer::new(registry(), ToolContext::new(()))
        .with_config(tool_mcp::McpConfig::new().with_protected_resource(resource, tokens()));
    let stop = serve(server, listener);

    let report = run_client(python, vec!["oauth".into(), url.clone()]).await;
    let authorization = |scope: &str| {
        json!({
            "endpoint": format!("{issuer}/authorize"),
            "resource": [url],
            "scope": [scope],
        })
    };
    assert_eq!(
        report,
        json!({
            "metadata": {
                "resource": url,
                "authorization_servers": [issuer],
                "bearer_methods_supported": ["header"],
                "scopes_supported": ["mcp:tools"],
            },
            "authorizations": [authorization("mcp:tools"), authorization("mcp:tools files:read")],
            "connected": connected(json!({"isError": false, "text": ["the secret"]})),
        })
    );
    stop.cancel();
    stop_issuer.cancel();
}

/// A stand-in OAuth authorization server on a loopback port: its metadata
/// (RFC 8414), dynamic client registration, and a token endpoint granting
/// the scopes its code names (`scopes=mcp:tools files:read`). Gives its
/// issuer URL.
async fn authorization_server() -> (String, CancellationToken) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let address: SocketAddr = listener.local_addr().expect("bound");
    let issuer = format!("http://{address}");
    let stop = CancellationToken::new();
    let metadata = json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/authorize"),
        "token_endpoint": format!("{issuer}/token"),
        "registration_endpoint": format!("{issuer}/register"),
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none", "client_secret_post"],
    });
    let stopped = stop.clone();
    tokio::spawn(async move {
        loop {
            let stream = tokio::select! {
                accepted = listener.accept() => accepted.expect("a connection").0,
                () = stopped.cancelled() => return,
            };
            let metadata = metadata.clone();
            tokio::spawn(async move {
                let answer = hyper::service::service_fn(move |request: Request<Incoming>| {
                    let metadata = metadata.clone();
                    async move { Ok::<_, Infallible>(issue(request, &metadata).await) }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), answer)
                    .await;
            });
        }
    });
    (issuer, stop)
}

/// The stand-in authorization server's answer to `request`.
async fn issue(request: Request<Incoming>, metadata: &Value) -> Response<Full<Bytes>> {
    let path = request.uri().path().to_owned();
    let body = request
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    let (status, answer) = match path.as_str() {
        "/.well-known/oauth-authorization-server" => (200, metadata.clone()),
        "/register" => {
            let mut client: Value = serde_json::from_slice(&body).expect("client metadata");
            client["client_id"] = json!("tool-mcp-test-client");
            (201, client)
        }
        "/token" => {
            let form = String::from_utf8_lossy(&body);
            let code = form
                .split('&')
                .find_map(|pair| pair.strip_prefix("code="))
                .unwrap_or_default();
            let reader = code.contains("files%3Aread");
            let (token, scope) = if reader {
                ("reader-token", "mcp:tools files:read")
            } else {
                ("guest-token", "mcp:tools")
            };
            let granted = json!({
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 3600,
                "scope": scope,
            });
            (200, granted)
        }
        _ => (404, json!({"error": "not_found"})),
    };
    let mut response = Response::new(Full::new(Bytes::from(answer.to_string())));
    *response.status_mut() = hyper::StatusCode::from_u16(status).expect("a status");
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    response
}
