use serde::{Deserialize, Serialize};
use tool_core::tool;

/// Search the web.
#[tool]
#[derive(Deserialize, Serialize, schemars::JsonSchema)]
struct WebSearch {
    /// The query.
    query: String,
}

fn main() {}
