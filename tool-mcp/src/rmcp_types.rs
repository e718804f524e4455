//! The types of [rmcp](https://docs.rs/rmcp) that tool-mcp's own API
//! names, re-exported so that a program can name them without depending on
//! rmcp: the HTTP settings and service of [`McpServer::http_service`], what
//! [`McpServer::serve_stdio`] ends with, the request a per-request context
//! is made from ([`McpServer::with_context_fn`]), the errors
//! [`ServeError`] and [`HttpSessionError`] carry, and the traits
//! [`McpServer`] and [`HttpSessions`] implement, and a mounted server's
//! result as a `mount::Screen` sees it (`mount::CallResult::result_mut`,
//! feature `client`).
//!
//! Only these: a program that uses more of rmcp (its client, another
//! transport) depends on rmcp itself, at the version tool-mcp uses.
//!
//! [`McpServer`]: crate::McpServer
//! [`McpServer::http_service`]: crate::McpServer::http_service
//! [`McpServer::serve_stdio`]: crate::McpServer::serve_stdio
//! [`McpServer::with_context_fn`]: crate::McpServer::with_context_fn
//! [`ServeError`]: crate::ServeError
//! [`HttpSessionError`]: crate::HttpSessionError
//! [`HttpSessions`]: crate::HttpSessions
//!
//! ```
//! use tool_mcp::rmcp_types::StreamableHttpServerConfig;
//!
//! let config: StreamableHttpServerConfig = tool_mcp::http_config();
//! assert!(config.legacy_session_mode);
//! ```

pub use rmcp::model::{CallToolResult, ContentBlock, ResourceContents};
pub use rmcp::service::{QuitReason, RequestContext, ServerInitializeError};
pub use rmcp::transport::streamable_http_server::session::SessionManager;
pub use rmcp::transport::streamable_http_server::session::local::LocalSessionManagerError;
pub use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
pub use rmcp::{RoleServer, ServerHandler};
