//! The conformance server: its tools, resources and prompts, and who it
//! says it is. Its tools are behind a handle, which one of them changes
//! (`test_trigger_tool_change`): every client listening is told.

use std::sync::OnceLock;

use tool_core::ToolContext;
use tool_core::toolset::RegistryHandle;
use tool_mcp::McpServer;

use crate::{prompts, resources, tools};

/// What the fixtures share: the handle of the server's tools.
pub(crate) struct Fixtures {
    pub(crate) tools: OnceLock<RegistryHandle<Fixtures>>,
}

/// The server the suite is run against.
pub(crate) fn server() -> McpServer<Fixtures> {
    let handle = RegistryHandle::new(tools::registry());
    let ctx = ToolContext::new(Fixtures {
        tools: OnceLock::new(),
    });
    let _ = ctx.state().tools.set(handle.clone());
    McpServer::following(&handle, ctx)
        .with_resources(resources::resources())
        .with_prompts(prompts::prompts())
        .with_server_info("tool-mcp-conformance", env!("CARGO_PKG_VERSION"))
}
