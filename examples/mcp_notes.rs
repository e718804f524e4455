//! The README's MCP server: a tool that asks the person before it acts, a
//! resource and a prompt, served over stdio. `tests/readme_mcp.rs` holds
//! the README's copy to this file, and has MCP's Python SDK, on its
//! defaults (protocol 2026-07-28), call it.
//!
//! ```text
//! cargo run --example mcp_notes
//! ```

use schemars::JsonSchema;
use serde::Deserialize;
use tool_core::elicit::{Elicit, ElicitError, Elicitation};
use tool_core::prompt::Prompts;
use tool_core::resource::Resources;
use tool_core::{ToolContext, ToolRegistry, prompt, resource, tool};
use tool_mcp::McpServer;

/// Whether to go on.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Sure {
    /// Yes, delete it.
    sure: bool,
}

/// Delete a note, asking the person first.
#[tool(asks)]
async fn delete_note(
    ctx: &ToolContext,
    /// The note's number.
    id: u32,
) -> Result<String, ElicitError> {
    let asked = ctx.elicit::<Sure>(format!("Delete note {id}?")).await?;
    Ok(match asked {
        Elicitation::Accept(Sure { sure: true }) => format!("deleted note {id}"),
        _ => format!("kept note {id}"),
    })
}

/// Every note, as one Markdown file.
#[resource(uri = "notes://all", mime_type = "text/markdown")]
fn notes() -> &'static str {
    "# Notes\n1. Buy milk.\n2. Call Ada."
}

/// Summarise the notes.
#[prompt]
fn summarize(
    /// How many words at most.
    words: Option<u32>,
) -> String {
    let words = words.unwrap_or(50);
    format!("Summarise notes://all in at most {words} words.")
}

#[tokio::main]
async fn main() -> Result<(), tool_mcp::ServeError> {
    McpServer::new(ToolRegistry::new().with(DeleteNote), ToolContext::new(()))
        .with_resources(Resources::new().with(Notes))
        .with_prompts(Prompts::new().with(Summarize))
        .serve_stdio()
        .await?;
    Ok(())
}
