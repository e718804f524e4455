use tool_core::tool;

/// Greet someone.
#[tool]
fn greet(name: &str) -> String {
    format!("hello {name}")
}

fn main() {}
