use tool_core::tool;

/// Wait a while.
#[tool(timeout = "ten seconds")]
async fn wait() -> String {
    String::from("done")
}

fn main() {}
