use tool_core::tool;

/// Search the web.
#[tool]
#[derive(serde::Serialize, schemars::JsonSchema)]
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
