//! A whole response as Ollama's JSON lines, cut into small pieces: see
//! [`Provider::streamed`](crate::provider::Provider::streamed).

use serde_json::{Value, json};

use crate::provider::stream::pieces::{TEXT_PIECE, pieces};

/// `response`, a whole response, as the provider streams it; `None` when it
/// is not one.
pub(crate) fn streamed(response: &Value) -> Option<String> {
    let mut last = response.as_object()?.clone();
    let message = last.remove("message")?;
    let role = message.get("role").cloned().unwrap_or("assistant".into());
    let line = |message: Value| {
        format!(
            "{}\n",
            json!({"model": response.get("model"), "created_at": response.get("created_at"), "message": message, "done": false})
        )
    };
    let mut out = String::new();
    let content = message
        .get("content")
        .and_then(Value::as_str)
        .unwrap_or_default();
    for piece in pieces(content, TEXT_PIECE) {
        out.push_str(&line(json!({"role": role, "content": piece})));
    }
    for call in message
        .get("tool_calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        out.push_str(&line(
            json!({"role": role, "content": "", "tool_calls": [call]}),
        ));
    }
    last.insert("message".into(), json!({"role": role, "content": ""}));
    out.push_str(&format!("{}\n", Value::Object(last)));
    Some(out)
}
