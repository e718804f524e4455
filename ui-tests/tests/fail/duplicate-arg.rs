use tool_core::tool;

/// Get the time.
#[tool(name = "now", name = "time")]
fn now() -> String {
    String::from("noon")
}

fn main() {}
