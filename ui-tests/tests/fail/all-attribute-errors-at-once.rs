use tool_core::tool;

/// Delete a file.
#[tool(nmae = "delete", timeout = "soon", read_only, read_only, tier = Maybe, scopes = [1])]
async fn delete(path: String) -> String {
    path
}

fn main() {}
