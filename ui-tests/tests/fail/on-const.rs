use tool_core::tool;

/// The answer.
#[tool]
const ANSWER: u32 = 42;

fn main() {}
