use serde::{Deserialize, Serialize};
use tool_core::tool;

/// Echo a value.
#[tool]
#[derive(Deserialize, Serialize, schemars::JsonSchema)]
struct Echo<T> {
    value: T,
}

fn main() {}
