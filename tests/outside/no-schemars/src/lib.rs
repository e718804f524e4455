//! Tools with tool-core's `schemars` feature off.
//!
//! By default this compiles: its tool writes its schema by hand. With the
//! `derived` feature it adds a tool that leaves the schema to be derived,
//! which must fail with one error saying what to do instead.

#![warn(missing_docs)]

use tool_core::tool;

/// Add two integers.
#[tool(schema = serde_json::json!({
    "type": "object",
    "properties": {
        "a": {"type": "integer", "description": "The first term."},
        "b": {"type": "integer", "description": "The second term."}
    },
    "required": ["a", "b"],
    "additionalProperties": false
}))]
pub fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Subtract two integers: no `schema = ...`, so it does not compile here.
#[cfg(feature = "derived")]
#[tool]
pub fn subtract(a: i64, b: i64) -> i64 {
    a - b
}
