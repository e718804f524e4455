//! OpenAI's Responses API streamed: each output item is
//! `response.output_item.added`, its deltas (`output_text.delta`,
//! `function_call_arguments.delta`) and `response.output_item.done`, when
//! a `function_call` is whole; `response.completed` (or `incomplete`)
//! carries the whole response; `response.failed` and `error` end the
//! stream. A `tool_search_call` the application runs (`execution:
//! "client"`) is a call too, in its place among them, as the whole
//! response reads it. The other `response.*` events (parts, reasoning,
//! hosted tools) repeat what the items say, and are passed over; an event
//! of another kind, added since, is passed over and counted.

use std::collections::HashMap;

use serde_json::Value;

use crate::provider::listing::SEARCH_TOOL;
use crate::provider::object::object;
use crate::provider::openai_responses::parse::parse_responses;
use crate::provider::stream::event::ReadStream;
use crate::provider::stream::event::{StreamEvent, bounded, event_type, json};
use crate::provider::stream::frame::{Frame, Framing};

/// The response as its events build it.
#[derive(Debug, Default)]
pub(crate) struct ResponsesStream {
    /// The whole response, once `response.completed` gave it.
    response: Option<Value>,
    /// Each `function_call` item's place among the calls, by its output
    /// index, and its arguments so far.
    calls: HashMap<u64, (usize, String, bool)>,
    started: usize,
    /// Events of kinds not known here, passed over.
    passed_over: usize,
}

/// Whether an output item is a call of the application's: a function call,
/// or a tool search it runs itself.
fn is_call(item: &Value) -> bool {
    match item.get("type").and_then(Value::as_str) {
        Some("function_call") => true,
        Some("tool_search_call") => item.get("execution").and_then(Value::as_str) == Some("client"),
        _ => false,
    }
}

impl ResponsesStream {
    fn read_frame(
        &mut self,
        frame: &Frame,
        limit: usize,
        events: &mut Vec<StreamEvent>,
    ) -> Result<bool, String> {
        let event = json(frame)?;
        let kind = event_type(frame, &event);
        let output_index = event.get("output_index").and_then(Value::as_u64);
        match kind.as_str() {
            "response.output_item.added" => {
                let item = event.get("item").unwrap_or(&Value::Null);
                if is_call(item) {
                    let at =
                        output_index.ok_or("`response.output_item.added` has no `output_index`")?;
                    if self.calls.contains_key(&at) {
                        return Err(format!("output item {at} was added twice"));
                    }
                    let index = self.started;
                    self.started += 1;
                    self.calls.insert(at, (index, String::new(), false));
                    events.push(StreamEvent::CallStarted {
                        index,
                        id: item
                            .get("call_id")
                            .and_then(Value::as_str)
                            .map(str::to_owned),
                        name: match item.get("type").and_then(Value::as_str) {
                            Some("tool_search_call") => SEARCH_TOOL.to_owned(),
                            _ => item
                                .get("name")
                                .and_then(Value::as_str)
                                .unwrap_or_default()
                                .to_owned(),
                        },
                    });
                }
            }
            "response.function_call_arguments.delta" => {
                let at = output_index.ok_or("an arguments delta has no `output_index`")?;
                let (index, arguments, done) = self.calls.get_mut(&at).ok_or_else(|| {
                    format!("arguments for output item {at}, which is no call begun")
                })?;
                if *done {
                    return Err(format!("call {index} grew after it was whole"));
                }
                let delta = event
                    .get("delta")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                bounded(*index, arguments.len() + delta.len(), limit)?;
                arguments.push_str(delta);
                events.push(StreamEvent::ArgumentsDelta {
                    index: *index,
                    delta: delta.to_owned(),
                });
            }
            "response.output_item.done" => {
                let item = event.get("item").unwrap_or(&Value::Null);
                if is_call(item) {
                    let at =
                        output_index.ok_or("`response.output_item.done` has no `output_index`")?;
                    let (index, _, done) = self
                        .calls
                        .get_mut(&at)
                        .ok_or_else(|| format!("output item {at} was done before it was added"))?;
                    *done = true;
                    let index = *index;
                    let parsed =
                        parse_responses(&object([("output", Value::Array(vec![item.clone()]))]))?;
                    if let Some(call) = parsed.into_iter().next() {
                        events.push(StreamEvent::CallComplete { index, call });
                    }
                }
            }
            "response.output_text.delta" => {
                if let Some(delta) = event.get("delta").and_then(Value::as_str)
                    && !delta.is_empty()
                {
                    events.push(StreamEvent::Text(delta.to_owned()));
                }
            }
            "response.completed" | "response.incomplete" => {
                let response = event
                    .get("response")
                    .cloned()
                    .ok_or_else(|| format!("`{kind}` has no `response`"))?;
                self.response = Some(response);
                events.push(StreamEvent::Done);
                return Ok(true);
            }
            "response.failed" => {
                let error = event
                    .pointer("/response/error")
                    .cloned()
                    .unwrap_or(Value::Null);
                return Err(format!("the provider says the response failed: {error}"));
            }
            "error" => {
                let message = event.get("message").cloned().unwrap_or(event.clone());
                return Err(format!("the provider sent an error: {message}"));
            }
            other if other.starts_with("response.") => {}
            // A new kind of event carries nothing the calls need.
            _ => self.passed_over += 1,
        }
        Ok(false)
    }

    fn finish_whole(self, done: bool) -> Result<Value, String> {
        match self.response {
            Some(response) if done => Ok(response),
            _ => Err("the stream ended before `response.completed`".to_owned()),
        }
    }
}

impl ReadStream for ResponsesStream {
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
