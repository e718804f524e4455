//! OpenAI Chat Completions, and the services that speak it (Groq,
//! DeepSeek, xAI, OpenRouter, Moonshot, Alibaba): `data:` chunks, the
//! first choice's `delta.content` and `delta.tool_calls` gathered by their
//! `index`, `data: [DONE]` or a `finish_reason` to end, and an `error`
//! object in place of a chunk for an error.

use serde_json::Value;

use super::independent::{Call, End, Reading, error_message, sse, text_at};

pub(crate) fn read(bytes: &[u8]) -> Reading {
    let mut calls: Vec<(u64, Option<String>, String, String)> = Vec::new();
    let mut text = String::new();
    let mut end = End::Cut;
    let mut finished = false;
    for event in sse(bytes) {
        if event.data.trim() == "[DONE]" {
            if end == End::Cut {
                end = End::Done;
            }
            continue;
        }
        let Ok(chunk) = serde_json::from_str::<Value>(&event.data) else {
            continue;
        };
        if chunk.get("error").is_some_and(|error| !error.is_null()) {
            end = End::Error(error_message(&chunk));
            continue;
        }
        let Some(choices) = chunk.get("choices").and_then(Value::as_array) else {
            continue;
        };
        for choice in choices {
            // The first choice is the turn; `n > 1` sends the others beside it.
            if choice.get("index").and_then(Value::as_u64).unwrap_or(0) != 0 {
                continue;
            }
            if choice
                .get("finish_reason")
                .is_some_and(|reason| !reason.is_null())
            {
                finished = true;
            }
            let Some(delta) = choice.get("delta") else {
                continue;
            };
            if let Some(piece) = text_at(delta, "content") {
                text.push_str(piece);
            }
            for (at, call) in delta
                .get("tool_calls")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                let index = call
                    .get("index")
                    .and_then(Value::as_u64)
                    .unwrap_or(at as u64);
                let function = call.get("function").unwrap_or(&Value::Null);
                let at = match calls.iter().position(|known| known.0 == index) {
                    Some(at) => at,
                    None => {
                        calls.push((index, None, String::new(), String::new()));
                        calls.len() - 1
                    }
                };
                let known = &mut calls[at];
                if let Some(id) = text_at(call, "id").filter(|id| !id.is_empty()) {
                    known.1.get_or_insert_with(|| id.to_owned());
                }
                if let Some(name) = text_at(function, "name").filter(|name| !name.is_empty())
                    && known.2.is_empty()
                {
                    known.2 = name.to_owned();
                }
                if let Some(piece) = text_at(function, "arguments") {
                    known.3.push_str(piece);
                }
            }
        }
    }
    if end == End::Cut && finished {
        end = End::Done;
    }
    Reading {
        calls: calls
            .into_iter()
            .map(|(_, id, name, arguments)| Call {
                id,
                name,
                arguments: Value::String(arguments),
            })
            .collect(),
        text,
        final_text: None,
        end,
    }
}
