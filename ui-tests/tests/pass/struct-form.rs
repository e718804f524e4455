use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tool_core::{tool, ToolContext, ToolRegistry};

struct App {
    index: Vec<String>,
}

fn five() -> u8 {
    5
}

/// Search the web for current information.
#[tool(name = "web_search", timeout = "10s")]
#[derive(Deserialize, Serialize, JsonSchema)]
struct WebSearch {
    /// The search query.
    query: String,
    /// Maximum results to return.
    #[schemars(range(min = 1, max = 20))]
    #[serde(default = "five")]
    max_results: u8,
}

impl WebSearch {
    async fn run(self) -> Result<Vec<String>, std::io::Error> {
        Ok(vec![self.query; self.max_results as usize])
    }
}

/// Search the application's index.
#[tool(context = App)]
#[derive(Deserialize, Serialize, JsonSchema)]
struct IndexSearch {
    /// The search query.
    query: String,
}

impl IndexSearch {
    fn run(self, ctx: &ToolContext<App>) -> Vec<String> {
        ctx.state().index.iter().filter(|entry| entry.contains(&self.query)).cloned().collect()
    }
}

fn main() {
    let registry = ToolRegistry::<App>::new()
        .with(WebSearchTool)
        .with(IndexSearchTool);
    assert_eq!(registry.names().collect::<Vec<_>>(), ["web_search", "index_search"]);
}
