use serde::{Deserialize, Serialize};
use tool_core::{tool, ToolContext};

struct App;

/// Search the web.
#[tool]
#[derive(Deserialize, Serialize, schemars::JsonSchema)]
struct WebSearch {
    /// The query.
    query: String,
}

impl WebSearch {
    async fn run(self, ctx: &ToolContext<App>) -> Vec<String> {
        let _ = ctx;
        vec![self.query]
    }
}

fn main() {}
