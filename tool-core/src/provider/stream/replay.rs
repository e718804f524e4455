//! A whole response streamed as its provider streams it: for scripted
//! servers and tests, which answer `"stream": true` requests with what a
//! provider would send. Text and arguments are cut into small pieces, so
//! that a reader sees the shapes a real stream has.

use serde_json::{Map, Value, json};

use crate::provider::Provider;

/// How many characters of text, and of arguments, a piece holds.
const TEXT_PIECE: usize = 4;
const ARGUMENTS_PIECE: usize = 6;

impl Provider {
    /// `response`, a whole response of this provider, as the provider
    /// streams it (`"stream": true`): the server-sent events of OpenAI Chat
    /// Completions (Groq, vLLM), Responses, Anthropic and Gemini, or
    /// Ollama's JSON lines. Reading it back with
    /// [`Provider::stream_reader`] gives the same response. `None` when
    /// `response` is not the provider's whole response, or the provider
    /// does not stream (MCP).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_core::provider::Provider;
    ///
    /// let provider = Provider::Anthropic { strict: false };
    /// let whole = json!({"role": "assistant", "stop_reason": "end_turn",
    ///     "content": [{"type": "text", "text": "It is sunny."}]});
    /// let streamed = provider.streamed(&whole).unwrap();
    /// assert!(streamed.starts_with("event: message_start\n"));
    /// let mut reader = provider.stream_reader();
    /// reader.feed(streamed.as_bytes()).unwrap();
    /// assert_eq!(reader.finish().unwrap(), whole);
    /// ```
    pub fn streamed(self, response: &Value) -> Option<String> {
        match self {
            Provider::OpenAiChat { .. } | Provider::Groq | Provider::Vllm { .. } => chat(response),
            Provider::OpenAiResponses { .. } => responses(response),
            Provider::Anthropic { .. } => anthropic(response),
            Provider::Gemini { .. } => gemini(response),
            Provider::Ollama => ollama(response),
            Provider::Mcp => None,
        }
    }
}

/// `text` in pieces of `size` characters.
fn pieces(text: &str, size: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(size)
        .map(|piece| piece.iter().collect())
        .collect()
}

fn chat(response: &Value) -> Option<String> {
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

fn sse(kind: &str, data: &Value) -> String {
    format!("event: {kind}\ndata: {data}\n\n")
}

fn responses(response: &Value) -> Option<String> {
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

fn anthropic(response: &Value) -> Option<String> {
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

fn gemini(response: &Value) -> Option<String> {
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

fn ollama(response: &Value) -> Option<String> {
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
