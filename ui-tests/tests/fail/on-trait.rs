use tool_core::tool;

/// A tool.
#[tool]
trait Search {
    fn search(&self, query: String) -> Vec<String>;
}

fn main() {}
