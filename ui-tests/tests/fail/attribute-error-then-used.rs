use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tool_core::{tool, ToolRegistry};

/// Look a word up.
#[tool(nmae = "x")]
fn lookup(word: String) -> String {
    word
}

/// Search the web.
#[tool(tier = Sometimes)]
#[derive(Deserialize, Serialize, JsonSchema)]
struct Search {
    /// The query.
    query: String,
}

impl Search {
    fn run(self) -> String {
        self.query
    }
}

fn main() {
    let _registry: ToolRegistry = ToolRegistry::new().with(Lookup).with(SearchTool);
}
