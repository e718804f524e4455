//! A whole response as Responses' server-sent events, cut into small pieces: see
//! [`Provider::streamed`](crate::provider::Provider::streamed).

use serde_json::{Value, json};

use crate::provider::stream::pieces::{ARGUMENTS_PIECE, TEXT_PIECE, pieces, sse};

/// `response`, a whole response, as the provider streams it; `None` when it
/// is not one.
pub(crate) fn streamed(response: &Value) -> Option<String> {
    let mut started = response.as_object()?.clone();
    let output = started.insert("output".into(), json!([]))?;
    started.insert("status".into(), "in_progress".into());
    let mut out = sse(
        "response.created",
        &json!({"type": "response.created", "response": started}),
    );
    for (at, item) in output.as_array()?.iter().enumerate() {
        let mut added = item.clone();
        match item.get("type").and_then(Value::as_str) {
            Some("function_call") => {
                added["arguments"] = "".into();
                out.push_str(&sse("response.output_item.added", &json!({"type": "response.output_item.added", "output_index": at, "item": added})));
                for piece in pieces(item.get("arguments")?.as_str()?, ARGUMENTS_PIECE) {
                    out.push_str(&sse(
                        "response.function_call_arguments.delta",
                        &json!({"type": "response.function_call_arguments.delta",
                        "item_id": item.get("id"), "output_index": at, "delta": piece}),
                    ));
                }
            }
            Some("message") => {
                added["content"] = json!([]);
                out.push_str(&sse("response.output_item.added", &json!({"type": "response.output_item.added", "output_index": at, "item": added})));
                for (part_at, part) in item.get("content")?.as_array()?.iter().enumerate() {
                    let text = part.get("text").and_then(Value::as_str).unwrap_or_default();
                    for piece in pieces(text, TEXT_PIECE) {
                        out.push_str(&sse("response.output_text.delta", &json!({"type": "response.output_text.delta",
                            "item_id": item.get("id"), "output_index": at, "content_index": part_at, "delta": piece})));
                    }
                }
            }
            _ => {
                out.push_str(&sse("response.output_item.added", &json!({"type": "response.output_item.added", "output_index": at, "item": item})));
            }
        }
        out.push_str(&sse(
            "response.output_item.done",
            &json!({"type": "response.output_item.done", "output_index": at, "item": item}),
        ));
    }
    out.push_str(&sse(
        "response.completed",
        &json!({"type": "response.completed", "response": response}),
    ));
    Some(out)
}
