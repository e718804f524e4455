use tool_core::tool;

/// Get the time.
#[tool(description = "  ")]
fn now() -> String {
    String::from("noon")
}

fn main() {}
