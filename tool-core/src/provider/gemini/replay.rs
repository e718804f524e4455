//! A whole response as Gemini's server-sent events (`alt=sse`), cut into small pieces: see
//! [`Provider::streamed`](crate::provider::Provider::streamed).

use serde_json::{Map, Value, json};

use crate::provider::stream::pieces::{TEXT_PIECE, pieces};

/// `response`, a whole response, as the provider streams it; `None` when it
/// is not one.
pub(crate) fn streamed(response: &Value) -> Option<String> {
    let mut top = response.as_object()?.clone();
    let mut candidate = top.remove("candidates")?.get(0)?.clone();
    let content = candidate.as_object_mut()?.remove("content")?;
    let role = content.get("role").cloned().unwrap_or("model".into());
    let event = |parts: Vec<Value>, last: bool| -> Option<String> {
        let mut now = json!({"content": {"parts": parts, "role": role}});
        let mut event = Map::new();
        if last {
            for (field, value) in candidate.as_object()? {
                now[field] = value.clone();
            }
            event.extend(top.clone());
        }
        event.insert("candidates".into(), json!([now]));
        Some(format!("data: {}\n\n", Value::Object(event)))
    };
    let mut out = String::new();
    let mut others = Vec::new();
    for part in content.get("parts")?.as_array()? {
        match part.get("text").and_then(Value::as_str) {
            Some(text) if part.as_object().is_some_and(|part| part.len() == 1) => {
                for piece in pieces(text, TEXT_PIECE) {
                    out.push_str(&event(vec![json!({"text": piece})], false)?);
                }
            }
            _ => others.push(part.clone()),
        }
    }
    out.push_str(&event(others, true)?);
    Some(out)
}
