//! Anthropic Messages.

use serde_json::{Map, Value, json};

use super::call::{list, typed_calls};
use crate::ToolResult;
use crate::provider::ProviderCall;

/// The content blocks of a message, or the blocks themselves.
fn blocks(response: &Value) -> Result<&[Value], String> {
    list(
        response,
        "content",
        "a message (with `content`) or its content blocks",
        false,
    )
}

pub(super) fn parse(response: &Value) -> Result<Vec<ProviderCall>, String> {
    typed_calls(blocks(response)?, "tool_use", "id", "input", "content")
}

pub(super) fn turn(response: &Value) -> Result<Vec<Value>, String> {
    Ok(vec![
        json!({"role": "assistant", "content": blocks(response)?}),
    ])
}

/// One user message whose `tool_result` blocks come first, one per
/// `tool_use`, in order; `is_error` on failures, so that the model corrects
/// its arguments rather than trusting the text.
pub(super) fn format<'a>(
    pairs: impl Iterator<Item = (&'a ProviderCall, &'a ToolResult)>,
) -> Vec<Value> {
    let content: Vec<Value> = pairs
        .map(|(call, result)| {
            let mut block = Map::new();
            block.insert("type".into(), "tool_result".into());
            block.insert("tool_use_id".into(), call.id().unwrap_or_default().into());
            block.insert("content".into(), result.model_text().into());
            if result.is_error() {
                block.insert("is_error".into(), true.into());
            }
            Value::Object(block)
        })
        .collect();
    if content.is_empty() {
        return Vec::new();
    }
    vec![json!({"role": "user", "content": content})]
}
