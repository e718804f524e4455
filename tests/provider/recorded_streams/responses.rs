//! OpenAI Responses (and Azure's, xAI's, LM Studio's, DeepSeek's): typed
//! events; a `function_call` item's arguments grow by
//! `response.function_call_arguments.delta` and are whole in its
//! `response.output_item.done`; a `tool_search_call` the application runs
//! (`execution: "client"`) is a call of its search tool; the text is every
//! `response.output_text.delta`; `response.completed` or
//! `response.incomplete` ends the turn, `response.failed` or `error` fails
//! it.

use std::collections::BTreeMap;

use serde_json::Value;

use super::independent::{Call, End, Reading, error_message, json_events, text_at};

/// The name a client-run tool search is called by.
const SEARCH_TOOL: &str = "search_tools";

pub(crate) fn read(bytes: &[u8]) -> Reading {
    let mut calls: BTreeMap<u64, Call> = BTreeMap::new();
    let mut text = String::new();
    // Each message item's text: its pieces, then its whole once `done`.
    let mut messages: BTreeMap<u64, String> = BTreeMap::new();
    let mut end = End::Cut;
    for (name, event) in json_events(bytes) {
        let kind = text_at(&event, "type")
            .map(str::to_owned)
            .or(name)
            .unwrap_or_default();
        let at = event
            .get("output_index")
            .and_then(Value::as_u64)
            .unwrap_or(u64::MAX);
        let item = event.get("item").unwrap_or(&Value::Null);
        match kind.as_str() {
            "response.output_item.added" | "response.output_item.done" => {
                if let Some(call) = call_of(item, kind.ends_with("done")) {
                    calls.insert(at, call);
                }
                if kind.ends_with("done") && text_at(item, "type") == Some("message") {
                    let parts = item.get("content").and_then(Value::as_array);
                    let whole = parts
                        .into_iter()
                        .flatten()
                        .filter(|part| text_at(part, "type") == Some("output_text"))
                        .filter_map(|part| text_at(part, "text"))
                        .collect();
                    messages.insert(at, whole);
                }
            }
            "response.function_call_arguments.delta" => {
                if let (Some(call), Some(delta)) = (calls.get_mut(&at), text_at(&event, "delta"))
                    && let Value::String(arguments) = &mut call.arguments
                {
                    arguments.push_str(delta);
                }
            }
            "response.function_call_arguments.done" => {
                if let (Some(call), Some(arguments)) =
                    (calls.get_mut(&at), text_at(&event, "arguments"))
                {
                    call.arguments = Value::String(arguments.to_owned());
                }
            }
            "response.output_text.delta" => {
                let piece = text_at(&event, "delta").unwrap_or_default();
                text.push_str(piece);
                messages.entry(at).or_default().push_str(piece);
            }
            "response.completed" | "response.incomplete" => end = End::Done,
            // The `error` event before it says more.
            "response.failed" if !matches!(end, End::Error(_)) => {
                let response = event.get("response").unwrap_or(&Value::Null);
                end = End::Error(error_message(response));
            }
            "error" => end = End::Error(error_message(&event)),
            _ => {}
        }
    }
    Reading {
        calls: calls.into_values().collect(),
        text,
        final_text: Some(messages.into_values().collect()),
        end,
    }
}

/// The call an output item is, if the application runs it: a function
/// call (its arguments whole once `done`), or a tool search it runs.
fn call_of(item: &Value, done: bool) -> Option<Call> {
    match text_at(item, "type")? {
        "function_call" => Some(Call {
            id: text_at(item, "call_id").map(str::to_owned),
            name: text_at(item, "name")?.to_owned(),
            arguments: Value::String(
                text_at(item, "arguments")
                    .filter(|_| done)
                    .unwrap_or_default()
                    .to_owned(),
            ),
        }),
        "tool_search_call" if done && text_at(item, "execution") == Some("client") => Some(Call {
            id: text_at(item, "call_id").map(str::to_owned),
            name: SEARCH_TOOL.to_owned(),
            arguments: item.get("arguments").cloned().unwrap_or(Value::Null),
        }),
        _ => None,
    }
}
