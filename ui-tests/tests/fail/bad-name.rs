use tool_core::tool;

/// Get the time.
#[tool(name = "get time")]
fn now() -> String {
    String::from("noon")
}

fn main() {}
