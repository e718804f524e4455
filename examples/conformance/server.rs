//! The conformance server: its tools, resources and prompts, and who it
//! says it is. Its tools are behind a handle, which one of them changes
//! (`test_trigger_tool_change`), and another changes its prompts
//! (`test_trigger_prompt_change`): every client listening is told.

use std::sync::OnceLock;

use tool_core::ToolContext;
use tool_core::toolset::RegistryHandle;
use tool_mcp::{McpConfig, McpServer};

use crate::{prompts, resources, tools};

/// What the fixtures share: the handle of the server's tools, and the
/// server itself, whose prompts a tool replaces (kept as long as the
/// process serves).
pub(crate) struct Fixtures {
    pub(crate) tools: OnceLock<RegistryHandle<Fixtures>>,
    pub(crate) server: OnceLock<McpServer<Fixtures>>,
}

/// The server the suite is run against.
pub(crate) fn server() -> McpServer<Fixtures> {
    let handle = RegistryHandle::new(tools::registry());
    let ctx = ToolContext::new(Fixtures {
        tools: OnceLock::new(),
        server: OnceLock::new(),
    });
    let _ = ctx.state().tools.set(handle.clone());
    let server = McpServer::following(&handle, ctx.clone())
        .with_resources(resources::resources())
        .with_prompts(prompts::prompts())
        .with_config(
            McpConfig::new().with_server_info("tool-mcp-conformance", env!("CARGO_PKG_VERSION")),
        );
    let _ = ctx.state().server.set(server.clone());
    server
}
