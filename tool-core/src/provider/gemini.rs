//! Google Gemini (`generateContent`).

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use super::call::{kind, optional_string, string_at};
use crate::provider::ProviderCall;
use crate::{ToolOutput, ToolResult};

/// The model's content: `candidates[0].content` of a response, the content
/// itself, or its bare `parts` (read as the model's content that holds
/// them, as the other providers' bare lists are).
fn content(response: &Value) -> Result<Cow<'_, Value>, String> {
    if response.is_array() {
        return Ok(Cow::Owned(json!({"role": "model", "parts": response})));
    }
    if response.get("candidates").is_some() {
        return response
            .pointer("/candidates/0/content")
            .map(Cow::Borrowed)
            .ok_or_else(|| {
                // A candidate stopped for safety or a malformed call has no
                // content; its reason is what the application needs to know.
                match response.pointer("/candidates/0/finishReason") {
                    Some(Value::String(reason)) => {
                        format!("`candidates[0]` has no `content` (finishReason `{reason}`)")
                    }
                    _ => "`candidates[0]` has no `content`".to_owned(),
                }
            });
    }
    if response.get("parts").is_some() {
        return Ok(Cow::Borrowed(response));
    }
    Err(format!(
        "expected a response (with `candidates`), a content (with `parts`) or its parts, got {}",
        kind(response)
    ))
}

pub(super) fn parse(response: &Value) -> Result<Vec<ProviderCall>, String> {
    let content = content(response)?;
    let Some(parts) = content.get("parts").and_then(Value::as_array) else {
        return Ok(Vec::new());
    };
    parts
        .iter()
        .enumerate()
        .filter_map(|(at, part)| part.get("functionCall").map(|call| (at, part, call)))
        .map(|(at, part, call)| {
            let name = string_at(call, "name", &format!("`parts[{at}].functionCall`"))?;
            // A call without arguments may leave `args` out.
            let arguments = call.get("args").cloned().unwrap_or_else(|| json!({}));
            let mut parsed = ProviderCall::new(optional_string(call, "id"), name, arguments);
            parsed.thought_signature = optional_string(part, "thoughtSignature");
            Ok(parsed)
        })
        .collect()
}

pub(super) fn turn(response: &Value) -> Result<Vec<Value>, String> {
    Ok(vec![content(response)?.into_owned()])
}

/// One user content holding a `functionResponse` part per call, in order.
/// `response` must be an object: the output under `output`, a failure's
/// text under `error`, as Gemini's documentation asks.
pub(super) fn format<'a>(
    pairs: impl Iterator<Item = (&'a ProviderCall, &'a ToolResult)>,
) -> Vec<Value> {
    let parts: Vec<Value> = pairs
        .map(|(call, result)| {
            let response = if result.is_error() {
                json!({ "error": result.model_text() })
            } else {
                match result.output() {
                    ToolOutput::Json(value) => json!({ "output": value }),
                    ToolOutput::Text(text) => json!({ "output": text }),
                    _ => json!({ "output": result.model_text() }),
                }
            };
            let mut function_response = Map::new();
            function_response.insert("name".into(), call.name().into());
            if let Some(id) = call.id() {
                function_response.insert("id".into(), id.into());
            }
            function_response.insert("response".into(), response);
            json!({ "functionResponse": function_response })
        })
        .collect();
    if parts.is_empty() {
        return Vec::new();
    }
    vec![json!({"role": "user", "parts": parts})]
}
