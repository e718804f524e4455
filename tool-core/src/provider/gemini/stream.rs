//! Gemini's `streamGenerateContent?alt=sse`: each event is a whole
//! `GenerateContentResponse` with some of the candidate's parts; text
//! comes in pieces, a `functionCall` part whole (the Gemini API does not
//! split arguments), so each call starts and is whole in one event, but
//! on Vertex AI with `streamFunctionCallArguments` a call's arguments come
//! over several parts ([`partial_args`](crate::provider::gemini::partial_args)).
//! The stream has no last event: it ends when the body does.

use serde_json::{Map, Value, json};

use crate::provider::gemini::content::parse;
use crate::provider::gemini::partial_args::{StreamedCall, continues};
use crate::provider::object::object;
use crate::provider::stream::event::ReadStream;
use crate::provider::stream::event::{StreamEvent, bounded, json_object};
use crate::provider::stream::frame::{Frame, Framing};

/// The response as its events build it.
#[derive(Debug, Default)]
pub(crate) struct GeminiStream {
    /// The last event's fields besides its candidates.
    top: Map<String, Value>,
    /// The first candidate's fields besides its content.
    candidate: Map<String, Value>,
    role: Option<Value>,
    parts: Vec<Value>,
    calls: usize,
    events: usize,
    /// A call whose arguments stream over parts, until it is whole.
    streamed: Option<StreamedCall>,
}

/// A response of the model's content holding `part` alone, as `parse`
/// reads a response.
fn one_part(part: Value) -> Value {
    let content = object([
        ("parts", Value::Array(vec![part])),
        ("role", "model".into()),
    ]);
    object([(
        "candidates",
        Value::Array(vec![object([("content", content)])]),
    )])
}

/// Whether a part is plain text, which the next plain text continues.
fn plain_text(part: &Value) -> bool {
    part.as_object()
        .is_some_and(|part| part.len() == 1 && part.get("text").is_some_and(Value::is_string))
}

impl GeminiStream {
    fn read_frame(
        &mut self,
        frame: &Frame,
        limit: usize,
        events: &mut Vec<StreamEvent>,
    ) -> Result<bool, String> {
        let mut event = json_object(frame, "an event")?;
        self.events += 1;
        let candidates = event.remove("candidates");
        for (field, value) in event {
            self.top.insert(field, value);
        }
        let Some(Value::Array(candidates)) = candidates else {
            return Ok(false);
        };
        let Some(Value::Object(candidate)) = candidates.into_iter().next() else {
            return Ok(false);
        };
        for (field, value) in candidate {
            if field != "content" {
                self.candidate.insert(field, value);
                continue;
            }
            if let Some(role) = value.get("role") {
                self.role = Some(role.clone());
            }
            for part in value
                .get("parts")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                self.part(part, limit, events)?;
            }
        }
        Ok(false)
    }

    fn part(
        &mut self,
        part: &Value,
        limit: usize,
        events: &mut Vec<StreamEvent>,
    ) -> Result<(), String> {
        if let Some(text) = part.get("text").and_then(Value::as_str)
            && part.get("thought") != Some(&Value::Bool(true))
            && !text.is_empty()
        {
            events.push(StreamEvent::Text(text.to_owned()));
        }
        if plain_text(part)
            && let Some(last) = self.parts.last_mut()
            && plain_text(last)
            && let (Some(Value::String(so_far)), Some(piece)) =
                (last.get_mut("text"), part["text"].as_str())
        {
            so_far.push_str(piece);
            return Ok(());
        }
        if let Some(call) = part.get("functionCall")
            && (self.streamed.is_some() || continues(call) || call.get("partialArgs").is_some())
        {
            return self.streamed_part(part, call, limit, events);
        }
        if let Some(call) = part.get("functionCall") {
            let index = self.calls;
            self.calls += 1;
            let arguments = call.get("args").map(Value::to_string).unwrap_or_default();
            bounded(index, arguments.len(), limit)?;
            events.push(StreamEvent::CallStarted {
                index,
                id: call.get("id").and_then(Value::as_str).map(str::to_owned),
                name: call
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
            });
            let whole = one_part(part.clone());
            let parsed = parse(&whole)?;
            if let Some(call) = parsed.into_iter().next() {
                // The text the delta gives is the registry's to read.
                let call = call.with_text(&arguments);
                events.push(StreamEvent::ArgumentsDelta {
                    index,
                    delta: arguments,
                });
                events.push(StreamEvent::CallComplete { index, call });
            } else {
                events.push(StreamEvent::ArgumentsDelta {
                    index,
                    delta: arguments,
                });
            }
        }
        self.parts.push(part.clone());
        Ok(())
    }

    /// A part of a call whose arguments stream over several parts: the
    /// first names it, the last makes it whole.
    fn streamed_part(
        &mut self,
        part: &Value,
        call: &Value,
        limit: usize,
        events: &mut Vec<StreamEvent>,
    ) -> Result<(), String> {
        let named = call.get("name").and_then(Value::as_str);
        let mut streamed = match (self.streamed.take(), named) {
            (None, Some(name)) => {
                let index = self.calls;
                self.calls += 1;
                events.push(StreamEvent::CallStarted {
                    index,
                    id: call.get("id").and_then(Value::as_str).map(str::to_owned),
                    name: name.to_owned(),
                });
                StreamedCall::begin(index, part)
            }
            (Some(streamed), None) => streamed,
            (Some(streamed), Some(name)) => {
                return Err(format!(
                    "the call of `{name}` began before call {} was whole",
                    streamed.index
                ));
            }
            (None, None) => {
                return Err("a part of a function call that no part began".to_owned());
            }
        };
        let whole = streamed.apply(call)?;
        bounded(streamed.index, streamed.bytes, limit)?;
        if !whole {
            self.streamed = Some(streamed);
            return Ok(());
        }
        let index = streamed.index;
        let part = streamed.into_part();
        let arguments = part["functionCall"]["args"].to_string();
        let whole = one_part(part.clone());
        let call = parse(&whole)?.into_iter().next();
        let call = call.map(|call| call.with_text(&arguments));
        events.push(StreamEvent::ArgumentsDelta {
            index,
            delta: arguments,
        });
        if let Some(call) = call {
            events.push(StreamEvent::CallComplete { index, call });
        }
        self.parts.push(part);
        Ok(())
    }

    /// The whole response: the candidate's parts together, the last
    /// event's finish reason and usage. Done when the body ends.
    fn finish_whole(self) -> Result<Value, String> {
        if self.events == 0 {
            return Err("the stream ended before any response came".to_owned());
        }
        if let Some(streamed) = self.streamed {
            return Err(format!(
                "the stream ended before the arguments of call {} were whole",
                streamed.index
            ));
        }
        let mut content = Map::new();
        content.insert("parts".to_owned(), Value::Array(self.parts));
        content.insert(
            "role".to_owned(),
            self.role.unwrap_or_else(|| "model".into()),
        );
        let mut candidate = Map::new();
        candidate.insert("content".to_owned(), Value::Object(content));
        candidate.extend(self.candidate);
        let mut response = Map::new();
        response.insert("candidates".to_owned(), json!([candidate]));
        response.extend(self.top);
        Ok(Value::Object(response))
    }
}

impl ReadStream for GeminiStream {
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

    fn ends_with_body(&self) -> bool {
        true
    }

    fn finish(self: Box<Self>, _done: bool) -> Result<Value, String> {
        self.finish_whole()
    }
}
