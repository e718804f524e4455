use tool_core::tool;

/// Count to three.
#[tool]
fn count() -> impl serde::Serialize {
    vec![1, 2, 3]
}

fn main() {}
