use tool_core::tool;

/// Get the time.
#[tool(allow_unknown_arguments)]
fn now(zone: String) -> String {
    zone
}

fn main() {}
