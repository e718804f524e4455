//! HTTP sessions within limits: a session idle for longer than the limit
//! is closed (its next request is 404, so the client starts another), one
//! with a request running is not; at the limit of open sessions a new one
//! closes the least recently used idle session, and is refused 503 when
//! every session has a request running (rmcp's 500 where the service is
//! mounted in another router); however many sessions clients open, no
//! more than the limit stay open.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::McpServer;

#[path = "support/raw.rs"]
mod raw;

use raw::Raw;

#[derive(Default)]
struct App {
    /// Told when `hold` has started.
    started: Notify,
    /// Lets `hold` finish.
    release: Notify,
}

/// Hold until released.
#[tool(read_only, tier = Observe, timeout = "1h")]
async fn hold(ctx: &ToolContext<App>) -> &'static str {
    ctx.state().started.notify_one();
    ctx.state().release.notified().await;
    "released"
}

/// Wait a while.
#[tool(read_only, tier = Observe)]
async fn wait(
    /// How long, in milliseconds.
    ms: u64,
) -> &'static str {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    "waited"
}

fn server(app: &Arc<App>) -> McpServer<App> {
    let registry = ToolRegistry::new().with(Hold).with(Wait);
    McpServer::new(registry, ToolContext::from_arc(Arc::clone(app)))
}

async fn serve(server: McpServer<App>) -> (SocketAddr, CancellationToken) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let address = listener.local_addr().expect("bound");
    let stop = CancellationToken::new();
    let config = tool_mcp::http_config().with_cancellation_token(stop.clone());
    tokio::spawn(server.serve_http_with(listener, config));
    (address, stop)
}

fn call(id: u32, tool: &str, arguments: serde_json::Value) -> String {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments},
    })
    .to_string()
}

#[test]
fn the_defaults_are_five_minutes_and_a_thousand_sessions() {
    let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()));
    assert_eq!(
        server.config().session_idle_limit(),
        Duration::from_secs(300)
    );
    assert_eq!(server.config().max_sessions(), 1000);
    assert_eq!(tool_mcp::DEFAULT_MAX_SESSIONS, 1000);
}

#[tokio::test]
async fn an_idle_session_is_closed_and_its_next_request_is_not_found() {
    let app = Arc::default();
    let idle = Duration::from_millis(400);
    let (address, stop) =
        serve(server(&app).with_config(tool_mcp::McpConfig::new().with_session_idle_limit(idle)))
            .await;
    let raw = Raw::new(address);

    let session = raw.open_session(&[]).await;
    assert_eq!(raw.ping(&session).await, 200);
    // A call running longer than the limit keeps its session open.
    let waited = raw
        .in_session(&session, &call(2, "wait", json!({"ms": 1000})))
        .await;
    assert_eq!(waited.status, 200);
    assert_eq!(waited.answer()["result"]["content"][0]["text"], "waited");
    assert_eq!(raw.ping(&session).await, 200);

    tokio::time::sleep(idle * 2).await;
    let expired = raw
        .in_session(&session, r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#)
        .await;
    assert_eq!(
        (expired.status, expired.body.as_str()),
        (404, "Not Found: Session not found")
    );
    // The client starts a new session, as the transport specification
    // has it do on 404.
    let again = raw.open_session(&[]).await;
    assert_ne!(again, session);
    assert_eq!(raw.ping(&again).await, 200);

    stop.cancel();
}

#[tokio::test]
async fn at_the_limit_the_least_recently_used_idle_session_is_closed() {
    let app = Arc::default();
    let (address, stop) =
        serve(server(&app).with_config(tool_mcp::McpConfig::new().with_max_sessions(2))).await;
    let raw = Raw::new(address);

    let first = raw.open_session(&[]).await;
    let second = raw.open_session(&[]).await;
    let third = raw.open_session(&[]).await;
    assert_eq!(raw.ping(&first).await, 404, "the oldest is closed");
    assert_eq!(raw.ping(&second).await, 200);
    assert_eq!(raw.ping(&third).await, 200);

    // `second` was used last: `third` goes next.
    assert_eq!(raw.ping(&second).await, 200);
    let fourth = raw.open_session(&[]).await;
    assert_eq!(raw.ping(&third).await, 404);
    assert_eq!(raw.ping(&second).await, 200);
    assert_eq!(raw.ping(&fourth).await, 200);

    // However many are opened, two stay open.
    let mut opened = vec![first, second, third, fourth];
    for _ in 0..30 {
        opened.push(raw.open_session(&[]).await);
    }
    let mut open = 0;
    for session in &opened {
        if raw.ping(session).await == 200 {
            open += 1;
        }
    }
    assert_eq!(open, 2);
    assert_eq!(raw.ping(&opened[33]).await, 200);

    stop.cancel();
}

#[tokio::test]
async fn when_every_session_has_a_request_running_a_new_one_is_refused() {
    let app: Arc<App> = Arc::default();
    let (address, stop) =
        serve(server(&app).with_config(tool_mcp::McpConfig::new().with_max_sessions(1))).await;
    let raw = Arc::new(Raw::new(address));

    let busy = raw.open_session(&[]).await;
    let started = app.started.notified();
    let holding = tokio::spawn({
        let raw = Arc::clone(&raw);
        let busy = busy.clone();
        async move { raw.in_session(&busy, &call(2, "hold", json!({}))).await }
    });
    started.await;

    let refused = raw.initialize(&[]).await;
    assert_eq!(refused.status, 503);
    assert_eq!(refused.header("content-type"), Some("application/json"));
    assert_eq!(refused.header("mcp-session-id"), None);
    assert_eq!(
        refused.body,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Service Unavailable: the server is at its limit of 1 open sessions, each with a request running; try again later"}}"#
    );

    app.release.notify_one();
    let held = holding.await.expect("the call");
    assert_eq!(held.answer()["result"]["content"][0]["text"], "released");
    // Idle now: the next session takes its place.
    let next = raw.open_session(&[]).await;
    assert_eq!(raw.ping(&next).await, 200);
    assert_eq!(raw.ping(&busy).await, 404);

    stop.cancel();
}

#[tokio::test]
async fn mounted_elsewhere_the_service_keeps_the_limit_and_rmcp_answers_500() {
    let app: Arc<App> = Arc::default();
    let service = server(&app)
        .with_config(tool_mcp::McpConfig::new().with_max_sessions(1))
        .http_service(tool_mcp::http_config());
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let address = listener.local_addr().expect("bound");
    // Served by hand, as a router of the user's own would: no front.
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
    let raw = Arc::new(Raw::new(address));

    let busy = raw.open_session(&[]).await;
    let started = app.started.notified();
    let holding = tokio::spawn({
        let raw = Arc::clone(&raw);
        async move { raw.in_session(&busy, &call(2, "hold", json!({}))).await }
    });
    started.await;
    let refused = raw.initialize(&[]).await;
    assert_eq!(
        (refused.status, refused.body.as_str()),
        (
            500,
            "Encounter an error when create session: the server is at its limit of 1 open sessions, each with a request running; try again later"
        )
    );

    app.release.notify_one();
    holding.await.expect("the call");
    accepting.abort();
}
