//! The conformance server: its tools, resources and prompts, and who it
//! says it is.

use tool_core::ToolContext;
use tool_mcp::McpServer;

use crate::{prompts, resources, tools};

/// The server the suite is run against.
pub(crate) fn server() -> McpServer {
    McpServer::new(tools::registry(), ToolContext::new(()))
        .with_resources(resources::resources())
        .with_prompts(prompts::prompts())
        .with_server_info("tool-mcp-conformance", env!("CARGO_PKG_VERSION"))
}
