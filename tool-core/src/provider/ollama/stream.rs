//! Ollama's native `/api/chat` streamed: one JSON object a line, each with
//! a piece of the message's `content` and, in their own lines, whole
//! `tool_calls`; the last line says `"done": true` with the reason and the
//! timings. (Its OpenAI-compatible `/v1` streams server-sent events, read
//! as Chat Completions.)

use serde_json::{Map, Value};

use crate::provider::object::object;
use crate::provider::ollama::server::OLLAMA_SERVER;
use crate::provider::openai_chat::parse::parse_chat;
use crate::provider::openai_chat::stream::ChatStream;
use crate::provider::stream::event::ReadStream;
use crate::provider::stream::event::{StreamEvent, bounded, json_object};
use crate::provider::stream::frame::{Frame, Framing};

/// The response as its lines build it.
#[derive(Debug, Default)]
pub(crate) struct OllamaLines {
    top: Map<String, Value>,
    message: Map<String, Value>,
    calls: Vec<Value>,
}

impl OllamaLines {
    fn read_frame(
        &mut self,
        frame: &Frame,
        limit: usize,
        events: &mut Vec<StreamEvent>,
    ) -> Result<bool, String> {
        let mut line = json_object(frame, "a line")?;
        if let Some(Value::Object(message)) = line.remove("message") {
            for (field, value) in message {
                match (field.as_str(), value) {
                    ("content", Value::String(piece)) => {
                        if !piece.is_empty() {
                            events.push(StreamEvent::Text(piece.clone()));
                        }
                        match self.message.get_mut("content") {
                            Some(Value::String(so_far)) => so_far.push_str(&piece),
                            _ => {
                                self.message.insert(field, Value::String(piece));
                            }
                        }
                    }
                    ("tool_calls", Value::Array(calls)) => {
                        for call in calls {
                            self.call(call, limit, events)?;
                        }
                    }
                    (_, value) => {
                        self.message.insert(field, value);
                    }
                }
            }
        }
        let done = line.get("done") == Some(&Value::Bool(true));
        self.top.extend(line);
        if done {
            events.push(StreamEvent::Done);
        }
        Ok(done)
    }

    fn call(
        &mut self,
        call: Value,
        limit: usize,
        events: &mut Vec<StreamEvent>,
    ) -> Result<(), String> {
        let index = self.calls.len();
        let function = call.get("function").unwrap_or(&Value::Null);
        let arguments = function
            .get("arguments")
            .map(Value::to_string)
            .unwrap_or_default();
        bounded(index, arguments.len(), limit)?;
        events.push(StreamEvent::CallStarted {
            index,
            id: call.get("id").and_then(Value::as_str).map(str::to_owned),
            name: function
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
        });
        let message = object([
            ("role", "assistant".into()),
            ("tool_calls", Value::Array(vec![call.clone()])),
        ]);
        let whole = object([("message", message)]);
        let parsed = parse_chat(&OLLAMA_SERVER, &whole)?.into_iter().next();
        // The text the delta gives is the registry's to read.
        let parsed = parsed.map(|parsed| parsed.with_text(&arguments));
        events.push(StreamEvent::ArgumentsDelta {
            index,
            delta: arguments,
        });
        if let Some(parsed) = parsed {
            events.push(StreamEvent::CallComplete {
                index,
                call: parsed,
            });
        }
        self.calls.push(call);
        Ok(())
    }

    fn finish_whole(self, done: bool) -> Result<Value, String> {
        if !done {
            return Err("the stream ended before its last line (`\"done\": true`)".to_owned());
        }
        let mut message = self.message;
        if !self.calls.is_empty() {
            message.insert("tool_calls".to_owned(), Value::Array(self.calls));
        }
        let mut response = Map::new();
        let mut top = self.top;
        if let Some(model) = top.remove("model") {
            response.insert("model".to_owned(), model);
        }
        if let Some(created) = top.remove("created_at") {
            response.insert("created_at".to_owned(), created);
        }
        response.insert("message".to_owned(), Value::Object(message));
        response.extend(top);
        Ok(Value::Object(response))
    }
}

/// Ollama's stream: its native lines, or, once its first byte says the
/// stream is server-sent events (its `/v1`), Chat Completions.
#[derive(Debug)]
pub(crate) enum OllamaStream {
    Lines(Box<OllamaLines>),
    Chat(Box<ChatStream>),
}

impl ReadStream for OllamaStream {
    fn framing(&self) -> Framing {
        match self {
            OllamaStream::Lines(_) => Framing::Lines,
            OllamaStream::Chat(_) => Framing::Events,
        }
    }

    fn first_byte(&mut self, byte: u8) -> Option<Framing> {
        if byte == b'{' {
            return None;
        }
        // Server-sent events: Ollama's OpenAI-compatible `/v1`.
        *self = OllamaStream::Chat(Box::new(ChatStream::new(OLLAMA_SERVER)));
        Some(Framing::Events)
    }

    fn read(
        &mut self,
        frame: &Frame,
        limit: usize,
        events: &mut Vec<StreamEvent>,
    ) -> Result<bool, String> {
        match self {
            OllamaStream::Lines(lines) => lines.read_frame(frame, limit, events),
            OllamaStream::Chat(chat) => chat.read(frame, limit, events),
        }
    }

    fn finish(self: Box<Self>, done: bool) -> Result<Value, String> {
        match *self {
            OllamaStream::Lines(lines) => lines.finish_whole(done),
            OllamaStream::Chat(chat) => chat.finish(done),
        }
    }
}
