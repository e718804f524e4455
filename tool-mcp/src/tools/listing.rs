//! `tools/list`: the registry's MCP definitions as rmcp's `Tool`s, in
//! pages.

use std::collections::HashMap;

use rmcp::ErrorData;
use rmcp::model::{ListToolsResult, Tool};
use tool_core::ToolRegistry;
use tool_core::provider::Provider;

/// The registry's tools as MCP lists them, in registration order, and where
/// each name is.
pub(crate) struct ToolsPage {
    tools: Vec<Tool>,
    by_name: HashMap<String, usize>,
}

impl ToolsPage {
    /// The tools of `registry` as tool-core's MCP definitions write them
    /// (the one source of the MCP shape), read into rmcp's type.
    pub(crate) fn of<Ctx: Send + Sync + 'static>(
        registry: &ToolRegistry<Ctx>,
    ) -> Result<Self, String> {
        let definitions = Provider::Mcp
            .definitions(registry)
            .map_err(|error| error.to_string())?;
        let tools: Vec<Tool> = serde_json::from_value(definitions.as_json().clone())
            .map_err(|error| format!("an MCP definition is not an MCP `Tool`: {error}"))?;
        let by_name = tools
            .iter()
            .enumerate()
            .map(|(at, tool)| (tool.name.to_string(), at))
            .collect();
        Ok(Self { tools, by_name })
    }

    pub(crate) fn get(&self, name: &str) -> Option<&Tool> {
        self.by_name.get(name).map(|at| &self.tools[*at])
    }

    /// The page that starts at `cursor` (the first without one): at most
    /// `size` of the tools `shown` lets through, and the cursor of the next
    /// page when there is one. A cursor is the index of the page's first
    /// tool, as a string; one that is not a cursor this server gave is
    /// JSON-RPC's invalid params, as MCP's pagination asks.
    pub(crate) fn page(
        &self,
        cursor: Option<&str>,
        size: usize,
        shown: impl Fn(&str) -> bool,
    ) -> Result<ListToolsResult, ErrorData> {
        let start = match cursor {
            None => 0,
            Some(cursor) => cursor
                .parse::<usize>()
                .ok()
                .filter(|start| *start < self.tools.len())
                // Not echoed: it is the client's, of any length.
                .ok_or_else(|| {
                    ErrorData::invalid_params("invalid cursor: not one this server gave", None)
                })?,
        };
        let mut listed = self.tools[start..]
            .iter()
            .enumerate()
            .filter(|(_, tool)| shown(&tool.name))
            .map(|(at, tool)| (start + at, tool));
        let page: Vec<Tool> = listed
            .by_ref()
            .take(size)
            .map(|(_, tool)| tool.clone())
            .collect();
        let mut result = ListToolsResult::with_all_items(page);
        // The next page starts at the next tool shown, if there is one.
        result.next_cursor = listed.next().map(|(at, _)| at.to_string());
        Ok(result)
    }
}
