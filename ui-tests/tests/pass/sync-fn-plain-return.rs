use tool_core::{tool, ToolRegistry};

/// Add two numbers.
#[tool(idempotent, open_world = false)]
fn add(
    /// The first number.
    a: i64,
    /// The second number.
    b: i64,
) -> i64 {
    a + b
}

/// Say hello.
#[tool]
fn hello() -> &'static str {
    "hello"
}

fn main() {
    // The function stays callable as written.
    assert_eq!(add(2, 3), 5);
    let registry: ToolRegistry = ToolRegistry::new().with(Add).with(Hello);
    assert_eq!(registry.tools().len(), 2);
}
