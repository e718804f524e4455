use tool_core::tool;

/// Add two numbers.
#[tool(tags = ["math", 1, ""])]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
