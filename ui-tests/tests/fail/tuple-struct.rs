use serde::{Deserialize, Serialize};
use tool_core::tool;

/// Search the web.
#[tool]
#[derive(Deserialize, Serialize, schemars::JsonSchema)]
struct WebSearch(String);

impl WebSearch {
    fn run(self) -> String {
        self.0
    }
}

fn main() {}
