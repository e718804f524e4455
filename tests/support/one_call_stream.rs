//! A stream of one call, as Anthropic, Gemini or Ollama sends it, for the
//! tests and benchmarks of streamed calls.

use serde_json::{Value, json};
use tool_core::provider::Provider;

/// A stream of `provider` with one call of `name` whose arguments are the
/// JSON text `arguments`: Anthropic's in two `input_json_delta`s, as they
/// are (a key given twice stays); Gemini's and Ollama's as the object it
/// is.
pub(crate) fn one_call_stream(provider: Provider, name: &str, arguments: &str) -> String {
    let event = |kind: &str, data: Value| format!("event: {kind}\ndata: {data}\n\n");
    let object = || serde_json::from_str::<Value>(arguments).expect("arguments in JSON");
    match provider {
        Provider::Anthropic { .. } => {
            let (first, second) = arguments.split_at(arguments.len() / 2);
            let delta = |piece: &str| {
                event(
                    "content_block_delta",
                    json!({"type": "content_block_delta", "index": 0,
                        "delta": {"type": "input_json_delta", "partial_json": piece}}),
                )
            };
            [
                event(
                    "message_start",
                    json!({"type": "message_start", "message": {"role": "assistant", "content": []}}),
                ),
                event(
                    "content_block_start",
                    json!({"type": "content_block_start", "index": 0,
                        "content_block": {"type": "tool_use", "id": "toolu_1", "name": name, "input": {}}}),
                ),
                delta(first),
                delta(second),
                event(
                    "content_block_stop",
                    json!({"type": "content_block_stop", "index": 0}),
                ),
                event("message_stop", json!({"type": "message_stop"})),
            ]
            .concat()
        }
        Provider::Gemini { .. } => format!(
            "data: {}\r\n\r\n",
            json!({"candidates": [{"content": {"role": "model", "parts": [
                {"functionCall": {"name": name, "args": object()}}
            ]}}]})
        ),
        _ => [
            json!({"message": {"role": "assistant", "content": "", "tool_calls": [
                {"function": {"name": name, "arguments": object()}}
            ]}, "done": false}),
            json!({"message": {"role": "assistant", "content": ""}, "done": true}),
        ]
        .map(|line| format!("{line}\n"))
        .concat(),
    }
}
