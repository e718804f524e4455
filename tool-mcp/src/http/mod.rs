//! The transports a server is served on: stdio, and streamable HTTP.

pub(crate) mod auth;
pub(crate) mod front;
pub(crate) mod hold;
pub(crate) mod protected_resource;
pub(crate) mod sessions;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use hyper::Request;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use rmcp::ServiceExt;
use rmcp::service::{QuitReason, ServerInitializeError};
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::asking::approval::warn_unrunnable;
use crate::error::ServeError;
use crate::http::front::HttpFront;
use crate::http::sessions::HttpSessions;
use crate::server::McpServer;
use crate::tasks::spec2025;

/// The browser origins [`http_config`] accepts: pages served from this
/// machine, over `http` or `https`, on any port. Another site's page
/// (`Origin: https://attacker.example`) is refused `403 Forbidden`, so a
/// page the user happens to visit cannot call local tools.
pub const LOOPBACK_ORIGINS: [&str; 6] = [
    "http://localhost:*",
    "http://127.0.0.1:*",
    "http://[::1]:*",
    "https://localhost:*",
    "https://127.0.0.1:*",
    "https://[::1]:*",
];

/// rmcp's HTTP settings as [`McpServer::serve_http`] uses them: rmcp's
/// defaults, which accept only a loopback `Host` (`localhost`,
/// `127.0.0.1`, `::1`, against DNS rebinding), and `Origin` validation on,
/// accepting only [`LOOPBACK_ORIGINS`]. A request without an `Origin`
/// header, as non-browser clients send, passes, as MCP's transport
/// security asks.
///
/// Start from it to serve with [`McpServer::serve_http_with`], and list
/// your own hosts and origins for a deployment reached by name:
///
/// ```
/// let config = tool_mcp::http_config()
///     .with_allowed_hosts(["tools.example.com"])
///     .with_allowed_origins(["https://app.example.com:443"]);
/// assert_eq!(config.allowed_hosts, ["tools.example.com"]);
/// assert_eq!(tool_mcp::http_config().allowed_hosts, ["localhost", "127.0.0.1", "::1"]);
/// assert_eq!(tool_mcp::http_config().allowed_origins, tool_mcp::LOOPBACK_ORIGINS);
/// ```
///
/// # Many processes
///
/// By default a client that opens with `initialize` (protocol versions
/// before 2026-07-28) gets an HTTP session (`Mcp-Session-Id`) that lives
/// in the process that answered it: its later requests must reach the
/// same process. Turn sessions off, and every request is answered on its
/// own by whichever process gets it, so any number of processes serving
/// the same registry can sit behind an ordinary load balancer, without
/// affinity (clients of 2026-07-28 are always served so):
///
/// ```
/// let config = tool_mcp::http_config().with_legacy_session_mode(false);
/// assert!(!config.legacy_session_mode);
/// ```
///
/// `tools/list` and `tools/call` need nothing more. Tasks (a
/// `long_running` call made by a client that takes tasks) and waiting
/// calls need a store the processes share: give the server and its
/// registry one ([`McpConfig::with_store`](crate::McpConfig::with_store), `ToolRegistry::with_store`;
/// the `tool-redis` crate's `RedisStore`), and a task started on one
/// process is read, waited for and cancelled through any. Without one,
/// each process keeps its own, so route a task's requests by its caller
/// (its token) to one process, or keep such tools on one. Without
/// sessions or bearer tokens, a task is told apart from others' only by
/// its id (122 random bits), which is then the secret that reads it.
pub fn http_config() -> StreamableHttpServerConfig {
    StreamableHttpServerConfig::default().with_allowed_origins(LOOPBACK_ORIGINS)
}

impl<Ctx: Send + Sync + 'static> McpServer<Ctx> {
    /// Serves one client over this process's stdin and stdout, as an
    /// editor or desktop assistant runs a local server, until the client
    /// closes them. Log to stderr: stdout carries the protocol.
    ///
    /// ```no_run
    /// use tool_core::{ToolContext, ToolRegistry};
    /// use tool_mcp::McpServer;
    ///
    /// #[tokio::main]
    /// async fn main() -> Result<(), tool_mcp::ServeError> {
    ///     let registry = ToolRegistry::<()>::new();
    ///     McpServer::new(registry, ToolContext::new(())).serve_stdio().await?;
    ///     Ok(())
    /// }
    /// ```
    pub async fn serve_stdio(self) -> Result<QuitReason, ServeError> {
        warn_unrunnable(&self);
        self.start_following();
        // Requests of 2025-11-25's tasks are told apart before rmcp reads them.
        let stateless = Arc::new(AtomicBool::new(false));
        let stdin = spec2025::route_stdin(Arc::clone(&stateless));
        let transport = spec2025::Declaring::new(
            AsyncRwTransport::new_server(stdin, tokio::io::stdout()),
            spec2025::task_tools(&self),
        );
        let running = match self.serve(transport).await {
            Ok(running) => running,
            // A client of 2026-07-28 opens no session: its input closing is
            // the end of its use of the server, not a session that failed
            // to start.
            Err(ServerInitializeError::ConnectionClosed(_))
                if stateless.load(Ordering::Relaxed) =>
            {
                return Ok(QuitReason::Closed);
            }
            Err(error) => return Err(ServeError::Initialize(Box::new(error))),
        };
        running.waiting().await.map_err(ServeError::Task)
    }

    /// The server as rmcp's streamable HTTP service (a `tower` service, to
    /// mount in an axum router, say), one session per client, each with a
    /// clone of the server, kept within the server's
    /// [idle limit](crate::McpConfig::with_session_idle_limit) and
    /// [number](crate::McpConfig::with_max_sessions) ([`HttpSessions`]). `config`
    /// is rmcp's; [`http_config`] gives the settings
    /// [`McpServer::serve_http`] uses (loopback `Host` and `Origin` only),
    /// where rmcp's own defaults check no `Origin`.
    ///
    /// What [`McpServer::serve_http`] answers before MCP is its own, not
    /// this service's: the 401 of [`McpConfig::with_bearer_auth`](crate::McpConfig::with_bearer_auth), the
    /// metadata and 403 of [`McpConfig::with_protected_resource`](crate::McpConfig::with_protected_resource), and the
    /// 503 of a new session over the limit (this service answers it `500`),
    /// and the tasks of protocol 2025-11-25 (`params.task`): this service
    /// serves the tasks extension only.
    /// Put the service behind your router's own authentication. Calls
    /// still run with the scopes of the request's token, and with none
    /// without one.
    ///
    /// ```
    /// use tool_core::{ToolContext, ToolRegistry};
    /// use tool_mcp::McpServer;
    ///
    /// let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()));
    /// let service = server.http_service(tool_mcp::http_config());
    /// assert_eq!(service.config.allowed_hosts, ["localhost", "127.0.0.1", "::1"]);
    /// ```
    pub fn http_service(
        self,
        config: StreamableHttpServerConfig,
    ) -> StreamableHttpService<Self, HttpSessions> {
        self.http_service_with_sessions(config).0
    }

    /// [`McpServer::http_service`], and its sessions.
    fn http_service_with_sessions(
        self,
        config: StreamableHttpServerConfig,
    ) -> (StreamableHttpService<Self, HttpSessions>, Arc<HttpSessions>) {
        warn_unrunnable(&self);
        self.start_following();
        let sessions = Arc::new(HttpSessions::new(
            self.config.session_idle_limit,
            self.config.max_sessions,
        ));
        let service =
            StreamableHttpService::new(move || Ok(self.clone()), Arc::clone(&sessions), config);
        (service, sessions)
    }

    /// Serves streamable HTTP on `listener`, at [`MCP_PATH`](crate::MCP_PATH), with the
    /// settings of [`http_config`] (a loopback `Host`, and a loopback
    /// `Origin` when a browser sends one; `403 Forbidden` otherwise).
    /// Bind the listener to a loopback address unless the server is meant
    /// to be reached from elsewhere, and then require tokens
    /// ([`McpConfig::with_bearer_auth`](crate::McpConfig::with_bearer_auth)): a request without a token it
    /// accepts is `401 Unauthorized`.
    ///
    /// ```no_run
    /// use tokio::net::TcpListener;
    /// use tool_core::{ToolContext, ToolRegistry};
    /// use tool_mcp::McpServer;
    ///
    /// #[tokio::main]
    /// async fn main() -> Result<(), Box<dyn std::error::Error>> {
    ///     let listener = TcpListener::bind("127.0.0.1:8080").await?;
    ///     let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()));
    ///     server.serve_http(listener).await?; // http://127.0.0.1:8080/mcp
    ///     Ok(())
    /// }
    /// ```
    pub async fn serve_http(self, listener: TcpListener) -> Result<(), ServeError> {
        self.serve_http_with(listener, http_config()).await
    }

    /// [`McpServer::serve_http`] with rmcp's settings `config` (start from
    /// [`http_config`]); returns when its `cancellation_token` is
    /// cancelled, which also ends every session. Fails at once, before
    /// accepting a connection, when the settings of
    /// [`McpConfig::with_protected_resource`](crate::McpConfig::with_protected_resource) are invalid
    /// ([`ServeError::InvalidProtectedResource`]); a failed connection
    /// never stops it.
    ///
    /// A request is answered in this order: with
    /// [`McpConfig::with_protected_resource`](crate::McpConfig::with_protected_resource), the metadata's well-known
    /// paths are the metadata; another path than [`MCP_PATH`](crate::MCP_PATH) is `404 Not
    /// Found`; with [`McpConfig::with_bearer_auth`](crate::McpConfig::with_bearer_auth) or a protected
    /// resource, a missing or refused token is `401 Unauthorized`, and with
    /// a protected resource, a `tools/call` needing a scope the token lacks
    /// is `403 Forbidden`; then rmcp checks `Host` and `Origin` (`403
    /// Forbidden`) and serves MCP, where a new session over the limit is
    /// `503 Service Unavailable`.
    pub async fn serve_http_with(
        self,
        listener: TcpListener,
        config: StreamableHttpServerConfig,
    ) -> Result<(), ServeError> {
        let published = match &self.config.resource {
            Some(resource) => Some(resource.publish()?),
            None => None,
        };
        let stop = config.cancellation_token.clone();
        let max_body = config.max_request_body_bytes;
        let keep_alive = config.sse_keep_alive;
        let idle = self.config.session_idle_limit;
        let (service, sessions) = self.clone().http_service_with_sessions(config);
        // Stopped with the server, or when this future is dropped.
        let sweeping = stop.child_token();
        let _sweeping = sweeping.clone().drop_guard();
        tokio::spawn(close_idle_sessions(sessions, idle, keep_alive, sweeping));
        // Shared, not cloned per request: a clone copies rmcp's settings,
        // their lists of hosts and origins included.
        let task_tools = spec2025::task_tools(&self);
        let front = Arc::new(HttpFront {
            service,
            server: self,
            published,
            max_body,
            task_tools,
        });
        loop {
            let stream = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => stream,
                    Err(error) if is_per_connection(&error) => continue,
                    Err(error) => {
                        // Out of file descriptors, say: wait for some to be
                        // freed rather than spin or stop serving.
                        tracing::warn!(%error, "accepting a connection failed");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                },
                () = stop.cancelled() => return Ok(()),
            };
            // A response goes out in more than one write (headers, then
            // the SSE body); with Nagle's algorithm on, the second waits
            // for the client's delayed ACK, about 40 ms a call.
            if let Err(error) = stream.set_nodelay(true) {
                tracing::debug!(%error, "TCP_NODELAY not set");
            }
            let front = Arc::clone(&front);
            // A token of the connection's own: its task polls it on every
            // wake-up, which on the server's token would take the lock all
            // connections share.
            let stop = stop.child_token();
            tokio::spawn(async move {
                let routed = hyper::service::service_fn(move |request: Request<Incoming>| {
                    let front = Arc::clone(&front);
                    async move { Ok::<_, std::convert::Infallible>(front.answer(request).await) }
                });
                let connection = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), routed);
                tokio::pin!(connection);
                tokio::select! {
                    served = connection.as_mut() => {
                        if let Err(error) = served {
                            tracing::debug!(%error, "HTTP connection ended with an error");
                        }
                    }
                    () = stop.cancelled() => connection.as_mut().graceful_shutdown(),
                }
            });
        }
    }
}

/// Closes the sessions that went `idle` without a request, every half of
/// it or of `keep_alive`, whichever is shorter (between 50 ms and 30 s),
/// until `stop`: a session whose client left is freed even when no one
/// comes to ask.
///
/// Half of `keep_alive` (rmcp's SSE keep-alive, 15 s unless set), because
/// rmcp arms a stream's keep-alive again with each event it sends, and
/// tokio wakes its I/O driver (a write to an eventfd, and a thread woken)
/// for each timer armed to fire before every other: each answer did,
/// unless this sweep is always due sooner.
async fn close_idle_sessions(
    sessions: Arc<HttpSessions>,
    idle: Duration,
    keep_alive: Option<Duration>,
    stop: CancellationToken,
) {
    let mut period = idle / 2;
    if let Some(keep_alive) = keep_alive {
        period = period.min(keep_alive / 2);
    }
    let period = period.clamp(Duration::from_millis(50), Duration::from_secs(30));
    loop {
        tokio::select! {
            () = tokio::time::sleep(period) => sessions.close_expired().await,
            () = stop.cancelled() => return,
        }
    }
}

/// An error of one connection, not of the listener.
fn is_per_connection(error: &std::io::Error) -> bool {
    matches!(
        error.kind(),
        std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::ConnectionReset
            | std::io::ErrorKind::ConnectionRefused
    )
}
