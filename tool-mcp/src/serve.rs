//! The transports a server is served on: stdio, and streamable HTTP.

use std::convert::Infallible;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, WWW_AUTHENTICATE};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::ServiceExt;
use rmcp::service::{QuitReason, ServerInitializeError};
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;

use crate::auth::{Refused, authenticate};
use crate::server::McpServer;
use crate::tasks_2025;

/// The path a server answers on over HTTP: `http://127.0.0.1:8080/mcp`
/// for a listener on `127.0.0.1:8080`. Any other path is 404.
pub const MCP_PATH: &str = "/mcp";

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
/// `tools/list` and `tools/call` need nothing more. What lives in one
/// process still does: a task (a `long_running` call made by a client
/// that takes tasks) is followed by `tasks/get` and `tasks/cancel` only
/// on the process that started it, so route a task's requests by its
/// caller (its token) to one process, or keep such tools on one. Without
/// sessions or bearer tokens, a task is told apart from others' only by
/// its id (122 random bits), which is then the secret that reads it.
pub fn http_config() -> StreamableHttpServerConfig {
    StreamableHttpServerConfig::default().with_allowed_origins(LOOPBACK_ORIGINS)
}

/// Why serving over stdio stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// The client did not open the session (no `initialize`, or the input
    /// closed first).
    /// Boxed: rmcp's error holds a whole message, and keeps every `Result`
    /// of this type large otherwise.
    #[error("the MCP session did not start: {0}")]
    Initialize(Box<ServerInitializeError>),
    /// The task running the session failed.
    #[error("the MCP session's task failed: {0}")]
    Task(#[from] tokio::task::JoinError),
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
        // Requests of 2025-11-25's tasks are told apart before rmcp reads them.
        let stdin = tasks_2025::route_stdin(Arc::clone(&self.tasks));
        let transport = tasks_2025::Declaring::new(
            AsyncRwTransport::new_server(stdin, tokio::io::stdout()),
            tasks_2025::task_tools(&self),
        );
        let running = self
            .serve(transport)
            .await
            .map_err(|error| ServeError::Initialize(Box::new(error)))?;
        Ok(running.waiting().await?)
    }

    /// The server as rmcp's streamable HTTP service (a `tower` service, to
    /// mount in an axum router, say), one session per client, each with a
    /// clone of the server. `config` is rmcp's; [`http_config`] gives the
    /// settings [`McpServer::serve_http`] uses (loopback `Host` and
    /// `Origin` only), where rmcp's own defaults check no `Origin`.
    ///
    /// The bearer token check of [`McpServer::with_bearer_auth`] answering
    /// 401 is [`McpServer::serve_http`]'s, not this service's: put the
    /// service behind your router's own authentication. Calls still run
    /// with the scopes of the request's token, and with none without one.
    /// So are the tasks of protocol 2025-11-25 (`params.task`): this
    /// service serves the tasks extension only.
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
    ) -> StreamableHttpService<Self, LocalSessionManager> {
        StreamableHttpService::new(
            move || Ok(self.clone()),
            Arc::new(LocalSessionManager::default()),
            config,
        )
    }

    /// Serves streamable HTTP on `listener`, at [`MCP_PATH`], with the
    /// settings of [`http_config`] (a loopback `Host`, and a loopback
    /// `Origin` when a browser sends one; `403 Forbidden` otherwise).
    /// Bind the listener to a loopback address unless the server is meant
    /// to be reached from elsewhere, and then require tokens
    /// ([`McpServer::with_bearer_auth`]): a request without a token it
    /// accepts is `401 Unauthorized`.
    ///
    /// ```no_run
    /// use tokio::net::TcpListener;
    /// use tool_core::{ToolContext, ToolRegistry};
    /// use tool_mcp::McpServer;
    ///
    /// #[tokio::main]
    /// async fn main() -> std::io::Result<()> {
    ///     let listener = TcpListener::bind("127.0.0.1:8080").await?;
    ///     let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()));
    ///     server.serve_http(listener).await // http://127.0.0.1:8080/mcp
    /// }
    /// ```
    pub async fn serve_http(self, listener: TcpListener) -> io::Result<()> {
        self.serve_http_with(listener, http_config()).await
    }

    /// [`McpServer::serve_http`] with rmcp's settings `config` (start from
    /// [`http_config`]); returns when its `cancellation_token` is
    /// cancelled, which also ends every session.
    ///
    /// A request is answered in this order: another path than
    /// [`MCP_PATH`] is `404 Not Found`; with
    /// [`McpServer::with_bearer_auth`], a missing or refused token is
    /// `401 Unauthorized`; then rmcp checks `Host` and `Origin` (`403
    /// Forbidden`) and serves MCP.
    pub async fn serve_http_with(
        self,
        listener: TcpListener,
        config: StreamableHttpServerConfig,
    ) -> io::Result<()> {
        let stop = config.cancellation_token.clone();
        let max_body = config.max_request_body_bytes;
        let verifier = self.verifier.clone();
        let tasks = Arc::clone(&self.tasks);
        let task_tools = tasks_2025::task_tools(&self);
        // Shared, not cloned per request: a clone copies rmcp's settings,
        // their lists of hosts and origins included.
        let service = Arc::new(self.http_service(config));
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
            let service = Arc::clone(&service);
            let verifier = verifier.clone();
            let tasks = Arc::clone(&tasks);
            let task_tools = Arc::clone(&task_tools);
            // A token of the connection's own: its task polls it on every
            // wake-up, which on the server's token would take the lock all
            // connections share.
            let stop = stop.child_token();
            tokio::spawn(async move {
                let routed = hyper::service::service_fn(move |request: Request<Incoming>| {
                    let service = Arc::clone(&service);
                    let verifier = verifier.clone();
                    let tasks = Arc::clone(&tasks);
                    let task_tools = Arc::clone(&task_tools);
                    async move {
                        if request.uri().path() != MCP_PATH {
                            return Ok::<_, Infallible>(not_found());
                        }
                        if let Some(verifier) = &verifier
                            && let Err(refused) = authenticate(verifier.as_ref(), request.headers())
                        {
                            return Ok(unauthorized(refused));
                        }
                        Ok(tasks_2025::handle_http(
                            &service,
                            request,
                            &tasks,
                            &task_tools,
                            verifier.is_some(),
                            max_body,
                        )
                        .await)
                    }
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

/// An error of one connection, not of the listener.
fn is_per_connection(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionRefused
    )
}

/// RFC 6750's answer: the scheme to use, and `invalid_token` when the
/// client sent one that was refused, so it knows not to send it again.
fn unauthorized(refused: Refused) -> Response<BoxBody<Bytes, Infallible>> {
    let challenge = match refused {
        Refused::Missing => HeaderValue::from_static("Bearer"),
        Refused::Invalid => HeaderValue::from_static(r#"Bearer error="invalid_token""#),
    };
    let mut response = Response::new(Full::new(Bytes::from_static(b"Unauthorized")).boxed());
    *response.status_mut() = StatusCode::UNAUTHORIZED;
    response.headers_mut().insert(WWW_AUTHENTICATE, challenge);
    response
}

fn not_found() -> Response<BoxBody<Bytes, Infallible>> {
    let mut response = Response::new(Full::new(Bytes::from_static(b"Not Found")).boxed());
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
}
