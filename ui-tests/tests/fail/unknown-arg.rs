use tool_core::tool;

/// Get the time.
#[tool(read_onyl)]
fn now() -> String {
    String::from("noon")
}

fn main() {}
