//! This framework's server: `add_note` and 99 fillers as `#[tool]`
//! functions in one `ToolRegistry`, served by `tool_mcp::McpServer` over
//! streamable HTTP at `http://127.0.0.1:PORT/mcp` with
//! `McpServer::serve_http` (that is, `tool_mcp::http_config()`).
//!
//! Usage: `tool-mcp-server --port PORT`.

use tokio::net::TcpListener;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::McpServer;

include!("../fillers.rs");
include!("../port.rs");

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
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let port = server_port("tool-mcp-server");
    let registry = registry();
    assert_eq!(registry.len(), 100, "add_note and 99 fillers");
    let server = McpServer::new(registry, ToolContext::new(()));
    let listener = TcpListener::bind(("127.0.0.1", port)).await?;
    server.serve_http(listener).await?;
    Ok(())
}
