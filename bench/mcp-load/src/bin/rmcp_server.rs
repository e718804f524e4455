//! rmcp's own server: `add_note` and 99 fillers as `#[tool]` methods in one
//! `#[tool_router]` impl, served by rmcp's `StreamableHttpService` over
//! streamable HTTP at `http://127.0.0.1:PORT/mcp`.
//!
//! The HTTP side is the same as `tool_mcp::McpServer::serve_http`'s, so
//! that only the MCP server behind it differs: the same settings
//! (`tool_mcp::http_config()`, which is rmcp's defaults plus loopback
//! origins), the same session manager (`LocalSessionManager`), the same
//! hyper HTTP/1 connection loop with the same `/mcp` path check
//! (`src/http_loop.rs`), and the same Tokio runtime.
//!
//! Usage: `rmcp-server --port PORT`.

use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{ServerCapabilities, ServerConfig};
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use tokio::net::TcpListener;

include!("../fillers.rs");
include!("../http_loop.rs");
include!("../port.rs");

/// The arguments of every tool.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoteArgs {
    /// The note's title.
    title: String,
    /// The note's text.
    body: String,
    /// 1 (highest) to 5.
    priority: u8,
}

/// The server whose methods are the tools; one per session, each with a
/// clone of the router built once in `main`.
#[derive(Clone)]
struct Notes {
    tool_router: ToolRouter<Notes>,
}

macro_rules! tools {
    ($($name:ident $unit:ident),* $(,)?) => {
        #[tool_router]
        impl Notes {
            /// Add a note to the user's notebook.
            #[tool]
            fn add_note(&self, Parameters(args): Parameters<NoteArgs>) -> String {
                let NoteArgs { title, body, priority } = args;
                format!("added note `{title}` (priority {priority}): {body}")
            }

            $(
                /// Add a note to another notebook.
                #[tool]
                fn $name(&self, Parameters(args): Parameters<NoteArgs>) -> String {
                    let NoteArgs { title, body, priority } = args;
                    format!("{}: `{title}` (priority {priority}): {body}", stringify!($name))
                }
            )*
        }
    };
}

fillers!(tools);

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Notes {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

// The same runtime as the tool-mcp server: Tokio's multi-threaded default,
// one worker per core.
#[tokio::main]
async fn main() -> std::io::Result<()> {
    let port = server_port("rmcp-server");
    let router = Notes::tool_router();
    assert_eq!(router.list_all().len(), 100, "add_note and 99 fillers");
    let service = StreamableHttpService::new(
        move || {
            Ok(Notes {
                tool_router: router.clone(),
            })
        },
        Arc::new(LocalSessionManager::default()),
        tool_mcp::http_config(),
    );
    let listener = TcpListener::bind(("127.0.0.1", port)).await?;
    serve_loop(listener, service).await;
    Ok(())
}
