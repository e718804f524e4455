//! The one error of serving, over stdio or HTTP.

use rmcp::service::ServerInitializeError;

/// Why serving stopped, or did not start: the error of
/// [`McpServer::serve_stdio`](crate::McpServer::serve_stdio) and
/// [`McpServer::serve_http`](crate::McpServer::serve_http) alike.
///
/// Each variant keeps its cause as its [`source`](std::error::Error::source),
/// and its own text does not repeat it: print the chain to see both.
///
/// ```
/// use std::error::Error as _;
/// use tool_mcp::{BearerTokens, McpServer, ProtectedResource};
/// use tool_core::{ToolContext, ToolRegistry};
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()))
///     .with_config(tool_mcp::McpConfig::new().with_protected_resource(
///         ProtectedResource::new("tools.example.com/mcp")
///             .authorization_server("https://auth.example.com"),
///         BearerTokens::new(),
///     ));
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
/// let error = server.serve_http(listener).await.unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "the protected resource's settings are invalid: the resource `tools.example.com/mcp` \
///      is not an absolute http or https URL"
/// );
/// assert!(error.source().is_none());
/// # });
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// Over stdio: the client did not open the session (no `initialize`,
    /// or the input closed first). A client of 2026-07-28, which opens
    /// none, ends its use of the server by closing its input: not this. Boxed: rmcp's error holds a whole
    /// message, and would make every `Result` of this type large.
    #[error("the MCP session did not start")]
    Initialize(#[source] Box<ServerInitializeError>),
    /// Over stdio: the task running the session failed (it panicked, or
    /// the runtime was shut down under it).
    #[error("the MCP session's task failed")]
    Task(#[source] tokio::task::JoinError),
    /// Over HTTP: the settings of
    /// [`McpConfig::with_protected_resource`](crate::McpConfig::with_protected_resource)
    /// cannot be published (a URL that is not absolute, a scope with a
    /// space): found before any connection is accepted.
    #[error("the protected resource's settings are invalid: {reason}")]
    InvalidProtectedResource {
        /// What is wrong, naming the value.
        reason: String,
    },
    /// The keys given to
    /// [`McpConfig::with_request_state_keys`](crate::McpConfig::with_request_state_keys)
    /// cannot seal: none, one too short, a name twice.
    #[error("the request state keys are invalid: {reason}")]
    InvalidRequestStateKeys {
        /// What is wrong.
        reason: String,
    },
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;

    #[test]
    fn each_variant_keeps_its_cause() {
        let initialize = ServeError::Initialize(Box::new(ServerInitializeError::ConnectionClosed(
            "initialize request".to_owned(),
        )));
        assert_eq!(initialize.to_string(), "the MCP session did not start");
        assert_eq!(
            initialize.source().map(ToString::to_string).as_deref(),
            Some("connection closed: initialize request")
        );
    }

    #[tokio::test]
    async fn a_failed_task_is_the_cause() {
        let failed = tokio::spawn(std::future::pending::<()>());
        failed.abort();
        let task = ServeError::Task(failed.await.expect_err("aborted"));
        assert_eq!(task.to_string(), "the MCP session's task failed");
        // The task's id is a process-wide count.
        let cause = task.source().map(ToString::to_string).unwrap_or_default();
        assert!(
            cause.starts_with("task ") && cause.ends_with(" was cancelled"),
            "{cause}"
        );
    }
}
