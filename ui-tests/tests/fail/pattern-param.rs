use tool_core::tool;

/// Add a pair of numbers.
#[tool]
fn add((a, b): (i64, i64)) -> i64 {
    a + b
}

fn main() {}
