//! What a server says of itself, in `initialize`'s answer and in
//! 2026-07-28's `server/discover` (which rmcp makes from the same value):
//! its name, version and instructions, and its capabilities: tools (whose
//! list may change), logging, the tasks extension when a tool is
//! `long_running`, resources (subscriptions, list changes) and prompts
//! (list changes) when it serves some, and completions with either.

use rmcp::model::{PromptsCapability, ResourcesCapability, ServerCapabilities, ServerConfig};

use crate::server::McpServer;

/// The server's name, instructions and capabilities.
// rmcp marks logging deprecated (SEP-2577); 2025-11-25 and 2026-07-28
// both have it.
#[allow(deprecated)]
pub(crate) fn server_config<Ctx: Send + Sync + 'static>(server: &McpServer<Ctx>) -> ServerConfig {
    let builder = ServerCapabilities::builder()
        .enable_logging()
        .enable_tools()
        .enable_tool_list_changed();
    let long_running = server
        .registry()
        .tools()
        .any(|tool| tool.metadata.long_running);
    let mut capabilities = if long_running {
        builder.enable_tasks().build()
    } else {
        builder.build()
    };
    let (served, prompted) = (!server.resources().is_empty(), !server.prompts().is_empty());
    if served {
        let mut resources = ResourcesCapability::default();
        resources.subscribe = Some(true);
        resources.list_changed = Some(true);
        capabilities.resources = Some(resources);
    }
    if prompted {
        let mut prompts = PromptsCapability::default();
        prompts.list_changed = Some(true);
        capabilities.prompts = Some(prompts);
    }
    if served || prompted {
        capabilities.completions = Some(Default::default());
    }
    let info = ServerConfig::new(capabilities).with_server_info(server.config.info.clone());
    match &server.config.instructions {
        Some(instructions) => info.with_instructions(instructions.clone()),
        None => info,
    }
}
