use serde::{Deserialize, Serialize};
use tool_core::tool;

/// Search the web.
#[tool]
#[derive(Deserialize, Serialize)]
struct WebSearch {
    /// The query.
    query: String,
}

impl WebSearch {
    fn run(self) -> String {
        self.query
    }
}

fn main() {}
