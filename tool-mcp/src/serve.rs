//! The transports a server is served on: stdio, and streamable HTTP.

use std::convert::Infallible;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::ServiceExt;
use rmcp::service::{QuitReason, ServerInitializeError};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;

use crate::server::McpServer;

/// The path a server answers on over HTTP: `http://127.0.0.1:8080/mcp`
/// for a listener on `127.0.0.1:8080`. Any other path is 404.
pub const MCP_PATH: &str = "/mcp";

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
        let running = self
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|error| ServeError::Initialize(Box::new(error)))?;
        Ok(running.waiting().await?)
    }

    /// The server as rmcp's streamable HTTP service (a `tower` service, to
    /// mount in an axum router, say), one session per client, each with a
    /// clone of the server. `config` is rmcp's: its defaults accept only
    /// loopback `Host`s (`localhost`, `127.0.0.1`, `::1`), against DNS
    /// rebinding; list your own hosts for a public deployment.
    ///
    /// ```
    /// use rmcp::transport::StreamableHttpServerConfig;
    /// use tool_core::{ToolContext, ToolRegistry};
    /// use tool_mcp::McpServer;
    ///
    /// let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()));
    /// let service = server.http_service(StreamableHttpServerConfig::default());
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

    /// Serves streamable HTTP on `listener`, at [`MCP_PATH`], with rmcp's
    /// default settings (see [`McpServer::http_service`]), until accepting
    /// fails. Bind the listener to a loopback address unless the server is
    /// meant to be reached from elsewhere.
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
        self.serve_http_with(listener, StreamableHttpServerConfig::default())
            .await
    }

    /// [`McpServer::serve_http`] with rmcp's settings `config`; returns
    /// when its `cancellation_token` is cancelled, which also ends every
    /// session.
    pub async fn serve_http_with(
        self,
        listener: TcpListener,
        config: StreamableHttpServerConfig,
    ) -> io::Result<()> {
        let stop = config.cancellation_token.clone();
        let service = self.http_service(config);
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
            let service = service.clone();
            let stop = stop.clone();
            tokio::spawn(async move {
                let routed = hyper::service::service_fn(move |request: Request<Incoming>| {
                    let service = service.clone();
                    async move {
                        if request.uri().path() != MCP_PATH {
                            return Ok::<_, Infallible>(not_found());
                        }
                        Ok(service.handle(request).await)
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

fn not_found() -> Response<BoxBody<Bytes, Infallible>> {
    let mut response = Response::new(Full::new(Bytes::from_static(b"Not Found")).boxed());
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
}
