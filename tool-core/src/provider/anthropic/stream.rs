//! Anthropic's Messages API streamed: `message_start` holds the message
//! with no content; each content block is `content_block_start`, its
//! deltas (`text_delta`, `input_json_delta` of a `tool_use`'s input,
//! `thinking_delta`, `signature_delta`, `citations_delta`) and
//! `content_block_stop`, when a `tool_use` is whole; `message_delta` sets
//! the stop reason and usage; `message_stop` ends it. `ping` is nothing;
//! `error` ends the stream.
//!
//! A block the server runs itself (`server_tool_use` for web search, code
//! execution or tool search, `mcp_tool_use`, and their results) streams its
//! input as `input_json_delta` too: it is gathered the same way and kept in
//! the message, which the next request echoes back, but it is no call of
//! the client's. An event or delta of a type this reader does not know
//! carries nothing the calls need, as the provider's own SDKs read it: it
//! is passed over and counted ([`ReadStream::passed_over`]).

use serde_json::{Map, Value};

use crate::provider::anthropic::messages::parse;
use crate::provider::object::object;
use crate::provider::stream::event::ReadStream;
use crate::provider::stream::event::{StreamEvent, bounded, event_type, json};
use crate::provider::stream::frame::{Frame, Framing};

/// A content block as its deltas build it.
#[derive(Debug)]
struct Block {
    block: Map<String, Value>,
    /// A block's input as JSON text as it streams, and for a `tool_use` its
    /// place among the client's calls.
    input: Option<(String, Option<usize>)>,
    /// Whether the input has come as deltas.
    deltas: bool,
    stopped: bool,
}

/// The message as its events build it.
#[derive(Debug, Default)]
pub(crate) struct AnthropicStream {
    message: Option<Map<String, Value>>,
    blocks: Vec<Block>,
    calls: usize,
    stopped: bool,
    /// Events and deltas of types not known here, passed over.
    passed_over: usize,
}

impl AnthropicStream {
    /// Reads a frame; `true` once the message has stopped.
    fn read_frame(
        &mut self,
        frame: &Frame,
        limit: usize,
        events: &mut Vec<StreamEvent>,
    ) -> Result<bool, String> {
        let event = json(frame)?;
        let kind = event_type(frame, &event);
        if kind != "message_start" && kind != "ping" && kind != "error" && self.message.is_none() {
            return Err(format!("`{kind}` came before `message_start`"));
        }
        match kind.as_str() {
            "message_start" => {
                let Some(Value::Object(message)) = event.get("message") else {
                    return Err("`message_start` has no `message`".to_owned());
                };
                // A second start (a stream a proxy spliced after a retry)
                // begins the message again, as the provider's SDKs read
                // it: what the first had is dropped, its calls unmade.
                self.blocks.clear();
                self.calls = 0;
                self.message = Some(message.clone());
            }
            "content_block_start" => {
                let index = self.index(&event)?;
                if index != self.blocks.len() {
                    return Err(format!(
                        "content block {index} began where block {} was to",
                        self.blocks.len()
                    ));
                }
                let Some(Value::Object(block)) = event.get("content_block") else {
                    return Err("`content_block_start` has no `content_block`".to_owned());
                };
                let mut block = block.clone();
                let input = if block.get("type").and_then(Value::as_str) == Some("tool_use") {
                    let call = self.calls;
                    self.calls += 1;
                    let name = block
                        .get("name")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    let id = block.get("id").and_then(Value::as_str).map(str::to_owned);
                    events.push(StreamEvent::CallStarted {
                        index: call,
                        id,
                        name: name.to_owned(),
                    });
                    // The input comes as deltas, and `{}` here is a
                    // placeholder; a call made by the server's code
                    // (programmatic tool calling) comes with its input
                    // whole, and no deltas.
                    let whole = match block.remove("input") {
                        Some(Value::Object(input)) if !input.is_empty() => {
                            Value::Object(input).to_string()
                        }
                        _ => String::new(),
                    };
                    Some((whole, Some(call)))
                } else {
                    // A block the server runs: its input, if it streams,
                    // replaces the one it began with.
                    None
                };
                self.blocks.push(Block {
                    block,
                    input,
                    deltas: false,
                    stopped: false,
                });
            }
            "content_block_delta" => self.delta(&event, limit, events)?,
            "content_block_stop" => {
                let index = self.index(&event)?;
                let block = self
                    .blocks
                    .get_mut(index)
                    .ok_or_else(|| format!("content block {index} stopped before it began"))?;
                if block.stopped {
                    return Err(format!("content block {index} stopped twice"));
                }
                block.stopped = true;
                if let Some((input, call)) = block.input.take() {
                    let kind = block.block.get("type").and_then(Value::as_str);
                    let kind = kind.unwrap_or("(untyped)").to_owned();
                    if !input.is_empty() || call.is_some() {
                        let input = if input.is_empty() { "{}" } else { &input };
                        let parsed: Value = serde_json::from_str(input).map_err(|error| {
                            format!("the input of {kind} block {index} is not JSON ({error})")
                        })?;
                        block.block.insert("input".to_owned(), parsed);
                    }
                    if let Some(call_index) = call {
                        let whole = object([(
                            "content",
                            Value::Array(vec![Value::Object(block.block.clone())]),
                        )]);
                        if let Some(call) = parse(&whole)?.into_iter().next() {
                            // Its arguments as they came, for the registry to
                            // read the tool's input out of.
                            let call = if input.is_empty() {
                                call
                            } else {
                                call.with_text(&input)
                            };
                            events.push(StreamEvent::CallComplete {
                                index: call_index,
                                call,
                            });
                        }
                    }
                }
            }
            "message_delta" => {
                let Some(message) = self.message.as_mut() else {
                    return Err("`message_delta` came before `message_start`".to_owned());
                };
                if let Some(Value::Object(delta)) = event.get("delta") {
                    for (field, value) in delta {
                        message.insert(field.clone(), value.clone());
                    }
                }
                if let Some(Value::Object(usage)) = event.get("usage") {
                    let so_far = message
                        .entry("usage")
                        .or_insert_with(|| Value::Object(Map::new()));
                    if let Value::Object(so_far) = so_far {
                        for (field, value) in usage {
                            so_far.insert(field.clone(), value.clone());
                        }
                    }
                }
            }
            "message_stop" => {
                if let Some(open) = self.blocks.iter().position(|block| !block.stopped) {
                    return Err(format!(
                        "the message stopped with content block {open} open"
                    ));
                }
                self.stopped = true;
                events.push(StreamEvent::Done);
                return Ok(true);
            }
            "ping" => {}
            "error" => {
                let error = event.get("error").cloned().unwrap_or(Value::Null);
                return Err(format!("the provider sent an error: {error}"));
            }
            // A new event type carries nothing the calls need.
            _ => self.passed_over += 1,
        }
        Ok(false)
    }

    fn index(&self, event: &Value) -> Result<usize, String> {
        event
            .get("index")
            .and_then(Value::as_u64)
            .and_then(|index| usize::try_from(index).ok())
            .ok_or_else(|| "an event about a content block has no `index`".to_owned())
    }

    fn delta(
        &mut self,
        event: &Value,
        limit: usize,
        events: &mut Vec<StreamEvent>,
    ) -> Result<(), String> {
        let index = self.index(event)?;
        let block = self
            .blocks
            .get_mut(index)
            .ok_or_else(|| format!("a delta of content block {index}, which has not begun"))?;
        if block.stopped {
            return Err(format!("a delta of content block {index} after it stopped"));
        }
        let delta = event.get("delta").unwrap_or(&Value::Null);
        let append =
            |block: &mut Map<String, Value>, field: &str, piece: &str| match block.get_mut(field) {
                Some(Value::String(so_far)) => so_far.push_str(piece),
                _ => {
                    block.insert(field.to_owned(), piece.into());
                }
            };
        let piece = |field: &str| delta.get(field).and_then(Value::as_str).unwrap_or_default();
        let mut passed_over = false;
        match delta.get("type").and_then(Value::as_str) {
            Some("text_delta") => {
                let text = piece("text");
                append(&mut block.block, "text", text);
                if !text.is_empty() {
                    events.push(StreamEvent::Text(text.to_owned()));
                }
            }
            Some("input_json_delta") => {
                // A server tool's block (web search, code execution...)
                // streams its input too, gathered here and no call's.
                let (input, call) = block.input.get_or_insert_with(|| (String::new(), None));
                let partial = piece("partial_json");
                if !block.deltas {
                    // The deltas are the input: what the start held goes.
                    input.clear();
                    block.deltas = true;
                }
                bounded(call.unwrap_or(index), input.len() + partial.len(), limit)?;
                input.push_str(partial);
                if let Some(call) = call
                    && !partial.is_empty()
                {
                    events.push(StreamEvent::ArgumentsDelta {
                        index: *call,
                        delta: partial.to_owned(),
                    });
                }
            }
            Some("thinking_delta") => append(&mut block.block, "thinking", piece("thinking")),
            Some("signature_delta") => append(&mut block.block, "signature", piece("signature")),
            Some("citations_delta") => {
                let citation = delta.get("citation").cloned().unwrap_or(Value::Null);
                let citations = block
                    .block
                    .entry("citations")
                    .or_insert_with(|| Value::Array(Vec::new()));
                if let Value::Array(citations) = citations {
                    citations.push(citation);
                }
            }
            // A new kind of delta (`compaction_delta`...) carries nothing
            // the calls need; the block keeps what it began with.
            _ => passed_over = true,
        }
        if passed_over {
            self.passed_over += 1;
        }
        Ok(())
    }

    /// The whole message, as the provider would have sent it.
    fn finish_whole(self, done: bool) -> Result<Value, String> {
        if !done || !self.stopped {
            return Err("the stream ended before `message_stop`".to_owned());
        }
        let mut message = self.message.unwrap_or_default();
        let content: Vec<Value> = self
            .blocks
            .into_iter()
            .map(|block| Value::Object(block.block))
            .collect();
        message.insert("content".to_owned(), Value::Array(content));
        Ok(Value::Object(message))
    }
}

impl ReadStream for AnthropicStream {
    fn framing(&self) -> Framing {
        Framing::Events
    }

    fn read(
        &mut self,
        frame: &Frame,
        limit: usize,
        events: &mut Vec<StreamEvent>,
    ) -> Result<bool, String> {
        self.read_frame(frame, limit, events)
    }

    fn finish(self: Box<Self>, done: bool) -> Result<Value, String> {
        self.finish_whole(done)
    }

    fn passed_over(&self) -> usize {
        self.passed_over
    }
}
