//! This framework's server: `add_note` and 99 fillers as `#[tool]`
//! functions in one `ToolRegistry`, served by `tool_mcp::McpServer` over
//! streamable HTTP at `http://127.0.0.1:PORT/mcp` with
//! `McpServer::serve_http` (that is, `tool_mcp::http_config()`).
//!
//! Usage: `tool-mcp-server --port PORT [--nodelay]`. With `--nodelay`, the
//! server's `McpServer::http_service` is served by the loop of
//! `src/http_loop.rs` (the one the rmcp server uses), which sets
//! TCP_NODELAY on each connection.

use tokio::net::TcpListener;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::McpServer;

include!("../fillers.rs");
include!("../http_loop.rs");

/// Add a note to the user's notebook.
#[tool(tier = Observe, concurrency_safe)]
fn add_note(
    /// The note's title.
    title: String,
    /// The note's text.
    body: String,
    /// 1 (highest) to 5.
    priority: u8,
) -> String {
    format!("added note `{title}` (priority {priority}): {body}")
}

macro_rules! tools {
    ($($name:ident $unit:ident),* $(,)?) => {
        $(
            /// Add a note to another notebook.
            #[tool(tier = Observe, concurrency_safe)]
            fn $name(
                /// The note's title.
                title: String,
                /// The note's text.
                body: String,
                /// 1 (highest) to 5.
                priority: u8,
            ) -> String {
                format!("{}: `{title}` (priority {priority}): {body}", stringify!($name))
            }
        )*

        /// Every tool, in one registry.
        fn registry() -> ToolRegistry {
            ToolRegistry::new().with(AddNote)$(.with($unit))*
        }
    };
}

fillers!(tools);

// The same runtime as the rmcp server: Tokio's multi-threaded default, one
// worker per core.
#[tokio::main]
async fn main() -> std::io::Result<()> {
    let (port, nodelay) = server_args("tool-mcp-server");
    let registry = registry();
    assert_eq!(registry.len(), 100, "add_note and 99 fillers");
    let server = McpServer::new(registry, ToolContext::new(()));
    let listener = TcpListener::bind(("127.0.0.1", port)).await?;
    if nodelay {
        // The same service `serve_http` serves, in the same loop but for
        // TCP_NODELAY, which `serve_http` leaves off.
        serve_loop(listener, server.http_service(tool_mcp::http_config()), true).await;
        Ok(())
    } else {
        server.serve_http(listener).await
    }
}
