//! OpenAI: Chat Completions and Responses.

use std::borrow::Cow;

use serde_json::{Value, json};

use super::call::{kind, list, optional_string, string_at, typed_calls};
use crate::ToolResult;
use crate::provider::ProviderCall;

/// The assistant message of a completion, or the message itself; a bare
/// `tool_calls` array is read as the message that holds it, as the other
/// providers' bare lists are.
fn chat_message(response: &Value) -> Result<Cow<'_, Value>, String> {
    if response.is_array() {
        return Ok(Cow::Owned(
            json!({"role": "assistant", "tool_calls": response}),
        ));
    }
    if response.get("choices").is_some() {
        return response
            .pointer("/choices/0/message")
            .map(Cow::Borrowed)
            .ok_or_else(|| "`choices[0]` has no `message`".to_owned());
    }
    if response.get("role").is_some() || response.get("tool_calls").is_some() {
        return Ok(Cow::Borrowed(response));
    }
    Err(format!(
        "expected a chat completion (with `choices`), its message or its `tool_calls`, got {}",
        kind(response)
    ))
}

pub(super) fn parse_chat(response: &Value) -> Result<Vec<ProviderCall>, String> {
    let message = chat_message(response)?;
    list(&message, "tool_calls", "a message", true)?
        .iter()
        .enumerate()
        .map(|(at, call)| {
            let what = format!("`tool_calls[{at}]`");
            if let Some(other) = call.get("type").and_then(Value::as_str)
                && other != "function"
            {
                return Err(format!("{what} is a `{other}` call, not a function call"));
            }
            let function = call
                .get("function")
                .ok_or_else(|| format!("{what} has no `function`"))?;
            let name = string_at(function, "name", &format!("{what}.function"))?;
            Ok(ProviderCall::new(
                optional_string(call, "id"),
                name,
                function.get("arguments").cloned().unwrap_or(Value::Null),
            ))
        })
        .collect()
}

pub(super) fn chat_turn(response: &Value) -> Result<Vec<Value>, String> {
    Ok(vec![chat_message(response)?.into_owned()])
}

/// One `tool` message per call, in order: Chat Completions refuses a
/// conversation where a `tool_call_id` goes unanswered.
pub(super) fn format_chat<'a>(
    pairs: impl Iterator<Item = (&'a ProviderCall, &'a ToolResult)>,
) -> Vec<Value> {
    pairs
        .map(|(call, result)| {
            json!({
                "role": "tool",
                "tool_call_id": call.id().unwrap_or_default(),
                "content": result.model_text(),
            })
        })
        .collect()
}

/// The output items of a response, or the items themselves.
fn output_items(response: &Value) -> Result<&[Value], String> {
    list(
        response,
        "output",
        "a response (with `output`) or its output items",
        false,
    )
}

pub(super) fn parse_responses(response: &Value) -> Result<Vec<ProviderCall>, String> {
    typed_calls(
        output_items(response)?,
        "function_call",
        "call_id",
        "arguments",
        "output",
    )
}

pub(super) fn responses_turn(response: &Value) -> Result<Vec<Value>, String> {
    Ok(output_items(response)?.to_vec())
}

/// One `function_call_output` item per call, keyed by its `call_id`.
pub(super) fn format_responses<'a>(
    pairs: impl Iterator<Item = (&'a ProviderCall, &'a ToolResult)>,
) -> Vec<Value> {
    pairs
        .map(|(call, result)| {
            json!({
                "type": "function_call_output",
                "call_id": call.id().unwrap_or_default(),
                "output": result.model_text(),
            })
        })
        .collect()
}
