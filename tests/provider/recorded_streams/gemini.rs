//! Gemini's `streamGenerateContent?alt=sse`: each event a
//! `GenerateContentResponse` with some of the first candidate's parts. A
//! `functionCall` part with its `args` is a whole call; with
//! `willContinue`, Vertex streams one call over several parts, the name
//! first, then `partialArgs` (a JSON path and a value, a string's pieces
//! following one another), until a part that does not continue. Text is
//! every part's `text` but the thoughts'. The body's end ends the turn;
//! an `error` object fails it.

use serde_json::{Map, Value};

use super::independent::{Call, End, Reading, error_message, json_events, text_at};

pub(crate) fn read(bytes: &[u8]) -> Reading {
    let mut calls = Vec::new();
    let mut growing: Option<Call> = None;
    let mut text = String::new();
    let mut end = End::Done;
    for (_, chunk) in json_events(bytes) {
        if chunk.get("error").is_some() {
            end = End::Error(error_message(&chunk));
            continue;
        }
        let parts = chunk
            .pointer("/candidates/0/content/parts")
            .and_then(Value::as_array);
        for part in parts.into_iter().flatten() {
            if let Some(piece) = text_at(part, "text")
                && part.get("thought") != Some(&Value::Bool(true))
            {
                text.push_str(piece);
            }
            let Some(call) = part.get("functionCall") else {
                continue;
            };
            let more = call.get("willContinue") == Some(&Value::Bool(true));
            if let Some(name) = text_at(call, "name") {
                calls.extend(growing.take());
                let started = Call {
                    id: text_at(call, "id").map(str::to_owned),
                    name: name.to_owned(),
                    arguments: call
                        .get("args")
                        .cloned()
                        .unwrap_or_else(|| Value::Object(Map::new())),
                };
                growing = Some(started);
            }
            if let Some(call_so_far) = &mut growing {
                for partial in call
                    .get("partialArgs")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    apply(&mut call_so_far.arguments, partial);
                }
            }
            if !more {
                calls.extend(growing.take());
            }
        }
    }
    calls.extend(growing);
    Reading {
        calls,
        text,
        final_text: None,
        end,
    }
}

/// One `partialArgs` entry set at its JSON path; a string's piece added
/// to the string already there.
fn apply(arguments: &mut Value, partial: &Value) {
    let Some(path) = text_at(partial, "jsonPath") else {
        return;
    };
    let value = if let Some(piece) = partial.get("stringValue") {
        piece.clone()
    } else if let Some(number) = partial.get("numberValue") {
        number.clone()
    } else if let Some(flag) = partial.get("boolValue") {
        flag.clone()
    } else if partial.get("nullValue").is_some() {
        Value::Null
    } else {
        return;
    };
    let slot = slot(arguments, path.strip_prefix('$').unwrap_or(path));
    match (slot, value) {
        (Value::String(so_far), Value::String(piece)) => so_far.push_str(&piece),
        (slot, value) => *slot = value,
    }
}

/// The place a path (`.a.b[0].c`) names, made where it is missing.
fn slot<'v>(mut at: &'v mut Value, path: &str) -> &'v mut Value {
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            let cut = after.find(['.', '[']).unwrap_or(after.len());
            let key = &after[..cut];
            rest = &after[cut..];
            if !at.is_object() {
                *at = Value::Object(Map::new());
            }
            if let Value::Object(object) = at {
                at = object.entry(key.to_owned()).or_insert(Value::Null);
            }
        } else if let Some(after) = rest.strip_prefix('[') {
            let cut = after.find(']').unwrap_or(after.len());
            let index: usize = after[..cut].parse().unwrap_or(0);
            rest = after.get(cut + 1..).unwrap_or("");
            if !at.is_array() {
                *at = Value::Array(Vec::new());
            }
            if let Value::Array(items) = at {
                if items.len() <= index {
                    items.resize(index + 1, Value::Null);
                }
                at = &mut items[index];
            }
        } else {
            break;
        }
    }
    at
}
