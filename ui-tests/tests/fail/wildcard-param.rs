use tool_core::tool;

/// Ignore the input.
#[tool]
fn ignore(_: String) -> String {
    String::new()
}

fn main() {}
