//! A whole response as Anthropic's server-sent events, cut into small pieces: see
//! [`Provider::streamed`](crate::provider::Provider::streamed).

use serde_json::{Map, Value, json};

use crate::provider::stream::pieces::{ARGUMENTS_PIECE, TEXT_PIECE, pieces, sse};

/// `response`, a whole response, as the provider streams it; `None` when it
/// is not one.
pub(crate) fn streamed(response: &Value) -> Option<String> {
    let mut message = response.as_object()?.clone();
    let content = message.remove("content")?;
    let mut delta = Map::new();
    for field in ["stop_reason", "stop_sequence"] {
        if let Some(value) = message.insert(field.into(), Value::Null) {
            delta.insert(field.into(), value);
        } else {
            message.remove(field);
        }
    }
    message.insert("content".into(), json!([]));
    let mut out = sse(
        "message_start",
        &json!({"type": "message_start", "message": message}),
    );
    for (index, block) in content.as_array()?.iter().enumerate() {
        let mut start = block.clone();
        let (kind, field, text) = match block.get("type").and_then(Value::as_str) {
            Some("text") => {
                start["text"] = "".into();
                (
                    "text_delta",
                    "text",
                    block.get("text")?.as_str()?.to_owned(),
                )
            }
            Some("tool_use") => {
                start["input"] = json!({});
                (
                    "input_json_delta",
                    "partial_json",
                    block.get("input")?.to_string(),
                )
            }
            _ => ("", "", String::new()),
        };
        out.push_str(&sse(
            "content_block_start",
            &json!({"type": "content_block_start", "index": index, "content_block": start}),
        ));
        if !kind.is_empty() {
            let size = if field == "text" {
                TEXT_PIECE
            } else {
                ARGUMENTS_PIECE
            };
            for piece in pieces(&text, size) {
                out.push_str(&sse(
                    "content_block_delta",
                    &json!({"type": "content_block_delta", "index": index,
                    "delta": {"type": kind, field: piece}}),
                ));
            }
        }
        out.push_str(&sse(
            "content_block_stop",
            &json!({"type": "content_block_stop", "index": index}),
        ));
    }
    out.push_str(&sse(
        "message_delta",
        &json!({"type": "message_delta", "delta": delta}),
    ));
    out.push_str(&sse("message_stop", &json!({"type": "message_stop"})));
    Some(out)
}
