//! The tool both benchmarks call: three arguments, a plain function.

// Each benchmark uses a part of it.
#![allow(dead_code)]

use serde::Deserialize;
use serde_json::{Value, json};
use tool_core::tool;

/// Add a note to the user's notebook.
#[tool(tier = Observe, concurrency_safe)]
pub(crate) fn add_note(
    /// The note's title.
    title: String,
    /// The note's text.
    body: String,
    /// 1 (highest) to 5.
    priority: u8,
) -> String {
    format!("added note `{title}` (priority {priority}): {body}")
}

/// Add a note to the user's notebook (not `concurrency_safe`: the registry
/// runs one call at a time).
#[tool(tier = Observe)]
pub(crate) fn add_note_locked(
    /// The note's title.
    title: String,
    /// The note's text.
    body: String,
    /// 1 (highest) to 5.
    priority: u8,
) -> String {
    format!("added note `{title}` (priority {priority}): {body}")
}

/// The same arguments as a plain struct, for the baseline.
#[derive(Deserialize)]
pub(crate) struct Args {
    pub(crate) title: String,
    pub(crate) body: String,
    pub(crate) priority: u8,
}

/// What every variant of `pipeline` returns.
pub(crate) const EXPECTED: &str = "added note `groceries` (priority 2): milk, eggs";

/// The arguments every variant is called with.
pub(crate) fn arguments() -> Value {
    json!({"title": "groceries", "body": "milk, eggs", "priority": 2})
}

/// The baseline: the arguments deserialized by serde_json, the function
/// called directly.
pub(crate) fn direct(args: Value) -> String {
    let Args {
        title,
        body,
        priority,
    } = serde_json::from_value::<Args>(args).expect("valid arguments");
    add_note(title, body, priority)
}
