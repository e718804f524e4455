use tool_core::tool;

/// Delete a file.
#[tool(tier = Dangerous)]
async fn delete(path: String) -> String {
    path
}

fn main() {}
