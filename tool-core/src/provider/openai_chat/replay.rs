//! A whole response as Chat Completions' chunks (Groq's and vLLM's too), cut into small pieces: see
//! [`Provider::streamed`](crate::provider::Provider::streamed).

use serde_json::{Map, Value, json};

use crate::provider::stream::pieces::{ARGUMENTS_PIECE, TEXT_PIECE, pieces};

/// `response`, a whole response, as the provider streams it; `None` when it
/// is not one.
pub(crate) fn streamed(response: &Value) -> Option<String> {
    let mut top = response.as_object()?.clone();
    let choice = top.remove("choices")?.get(0)?.clone();
    let usage = top.remove("usage");
    top.insert("object".into(), "chat.completion.chunk".into());
    let chunk = |choices: Value| {
        let mut chunk = top.clone();
        chunk.insert("choices".into(), choices);
        format!("data: {}\n\n", Value::Object(chunk))
    };
    let choice_of = |delta: Value, finish: Value| {
        let mut streamed = json!({"index": 0, "delta": delta, "finish_reason": finish});
        if let Some(logprobs) = choice.get("logprobs") {
            streamed["logprobs"] = logprobs.clone();
        }
        json!([streamed])
    };
    let message = choice.get("message")?.as_object()?;
    let mut first = Map::new();
    let mut texts = Vec::new();
    for (field, value) in message {
        match (field.as_str(), value) {
            ("tool_calls", _) => {}
            (_, Value::String(text)) if field != "role" => {
                texts.push((field.clone(), text.clone()))
            }
            _ => {
                first.insert(field.clone(), value.clone());
            }
        }
    }
    let mut out = chunk(choice_of(Value::Object(first), Value::Null));
    for (field, text) in texts {
        for piece in pieces(&text, TEXT_PIECE) {
            out.push_str(&chunk(choice_of(
                json!({field.clone(): piece}),
                Value::Null,
            )));
        }
    }
    let calls = message.get("tool_calls").and_then(Value::as_array);
    for (index, call) in calls.into_iter().flatten().enumerate() {
        let function = call.get("function")?;
        let mut start = json!({"index": index, "type": call.get("type").cloned().unwrap_or("function".into()),
            "function": {"name": function.get("name")?, "arguments": ""}});
        if let Some(id) = call.get("id") {
            start["id"] = id.clone();
        }
        out.push_str(&chunk(choice_of(
            json!({"tool_calls": [start]}),
            Value::Null,
        )));
        for piece in pieces(function.get("arguments")?.as_str()?, ARGUMENTS_PIECE) {
            let delta = json!({"tool_calls": [{"index": index, "function": {"arguments": piece}}]});
            out.push_str(&chunk(choice_of(delta, Value::Null)));
        }
    }
    let finish = choice.get("finish_reason").cloned().unwrap_or(Value::Null);
    out.push_str(&chunk(choice_of(json!({}), finish)));
    if let Some(usage) = usage {
        let mut last = top.clone();
        last.insert("choices".into(), json!([]));
        last.insert("usage".into(), usage);
        out.push_str(&format!("data: {}\n\n", Value::Object(last)));
    }
    out.push_str("data: [DONE]\n\n");
    Some(out)
}
