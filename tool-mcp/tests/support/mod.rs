//! What several tests need: a server over HTTP on a loopback port, and a
//! client of protocol 2026-07-28 connected to it.

use std::net::SocketAddr;

use rmcp::model::ProtocolVersion;
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, RoleClient};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tool_mcp::McpServer;

/// Serves `server` over HTTP, with `http_config()`, on a loopback port
/// until the token is cancelled.
pub(crate) async fn serve_http<Ctx: Send + Sync + 'static>(
    server: McpServer<Ctx>,
) -> (SocketAddr, CancellationToken) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let address = listener.local_addr().expect("bound");
    let stop = CancellationToken::new();
    let config = tool_mcp::http_config().with_cancellation_token(stop.clone());
    tokio::spawn(server.serve_http_with(listener, config));
    (address, stop)
}

/// `client` connected to the server at `address` with `server/discover`,
/// as a 2026-07-28 client: no session, and its capabilities in every
/// request.
#[allow(
    dead_code,
    reason = "not every test binary with this module connects a 2026 client"
)]
pub(crate) async fn connect_2026<C: ClientHandler>(
    client: C,
    address: SocketAddr,
) -> RunningService<RoleClient, C> {
    let transport = StreamableHttpClientTransport::from_uri(format!("http://{address}/mcp"));
    let client = client
        .serve_with_lifecycle(
            transport,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("discovered");
    assert_eq!(
        client.peer_info().expect("discovered").protocol_version,
        ProtocolVersion::V_2026_07_28
    );
    client
}
