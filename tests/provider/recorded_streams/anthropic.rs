//! Anthropic Messages: `message_start`, content blocks by `index`, each
//! `content_block_start` then deltas; a `tool_use` block is a call whose
//! input is its `input_json_delta` pieces joined (or the start's `input`
//! when none came); a text block's text is its start's text and its
//! `text_delta`s; `message_stop` ends the turn and `error` fails it. A
//! second `message_start` begins the message again (a stream spliced
//! onto a retry), as the Vercel AI SDK reads it.

use std::collections::BTreeMap;

use serde_json::Value;

use super::independent::{Call, End, Reading, error_message, json_events, text_at};

#[derive(Default)]
struct Block {
    kind: String,
    id: Option<String>,
    name: String,
    input: Value,
    json: String,
    text: String,
}

pub(crate) fn read(bytes: &[u8]) -> Reading {
    let mut blocks: BTreeMap<u64, Block> = BTreeMap::new();
    let mut end = End::Cut;
    for (name, event) in json_events(bytes) {
        let kind = text_at(&event, "type")
            .map(str::to_owned)
            .or(name)
            .unwrap_or_default();
        let index = event.get("index").and_then(Value::as_u64).unwrap_or(0);
        match kind.as_str() {
            "message_start" => blocks.clear(),
            "content_block_start" => {
                let block = event.get("content_block").unwrap_or(&Value::Null);
                blocks.insert(
                    index,
                    Block {
                        kind: text_at(block, "type").unwrap_or_default().to_owned(),
                        id: text_at(block, "id").map(str::to_owned),
                        name: text_at(block, "name").unwrap_or_default().to_owned(),
                        input: block.get("input").cloned().unwrap_or(Value::Null),
                        json: String::new(),
                        text: text_at(block, "text").unwrap_or_default().to_owned(),
                    },
                );
            }
            "content_block_delta" => {
                let delta = event.get("delta").unwrap_or(&Value::Null);
                let block = blocks.entry(index).or_default();
                match text_at(delta, "type") {
                    Some("text_delta") => block.text.push_str(text_at(delta, "text").unwrap_or("")),
                    Some("input_json_delta") => {
                        block
                            .json
                            .push_str(text_at(delta, "partial_json").unwrap_or(""));
                    }
                    _ => {}
                }
            }
            "message_stop" => end = End::Done,
            "error" => end = End::Error(error_message(&event)),
            _ => {}
        }
    }
    let mut calls = Vec::new();
    let mut text = String::new();
    for block in blocks.into_values() {
        match block.kind.as_str() {
            "tool_use" => calls.push(Call {
                id: block.id,
                name: block.name,
                arguments: if block.json.trim().is_empty() {
                    block.input
                } else {
                    Value::String(block.json)
                },
            }),
            "text" => text.push_str(&block.text),
            _ => {}
        }
    }
    Reading {
        calls,
        text,
        final_text: None,
        end,
    }
}
