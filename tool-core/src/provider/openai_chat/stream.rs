//! OpenAI Chat Completions streamed (`chat.completion.chunk`), as Groq and
//! vLLM stream it too: each chunk's `choices[0].delta` adds to the
//! message (its text appended, its other fields set), and each call in
//! `delta.tool_calls` is told apart by `index`, its `id` and name in its
//! first delta and its `arguments` in pieces. A call is whole when the
//! next one begins with its arguments parsing as JSON, or when the turn
//! ends (`finish_reason`); `data: [DONE]` ends the stream.

use serde_json::{Map, Value, json};

use crate::provider::openai_chat::parse::parse_chat;
use crate::provider::openai_chat::server::ChatServer;
use crate::provider::stream::event::ReadStream;
use crate::provider::stream::event::{StreamEvent, bounded, json_object};
use crate::provider::stream::frame::{Frame, Framing};

/// A call as its deltas build it.
#[derive(Debug, Default)]
struct Call {
    id: Option<String>,
    kind: Option<String>,
    name: String,
    arguments: String,
    complete: bool,
    /// Where the arguments' JSON stands, to tell the moment it closes.
    depth: usize,
    in_string: bool,
    escaped: bool,
    opened: bool,
}

impl Call {
    /// Follows `piece` of the arguments' text: whether the JSON value it
    /// builds has just closed (its last bracket came).
    fn closes_with(&mut self, piece: &str) -> bool {
        let mut closed = false;
        for byte in piece.bytes() {
            if self.in_string {
                match (self.escaped, byte) {
                    (true, _) => self.escaped = false,
                    (false, b'\\') => self.escaped = true,
                    (false, b'"') => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            match byte {
                b'"' => self.in_string = true,
                b'{' | b'[' => {
                    self.depth += 1;
                    self.opened = true;
                }
                b'}' | b']' => {
                    self.depth = self.depth.saturating_sub(1);
                    closed = self.opened && self.depth == 0;
                }
                _ => {}
            }
        }
        closed
    }
}

/// The response as its chunks build it.
#[derive(Debug)]
pub(crate) struct ChatStream {
    /// How the server's messages differ from OpenAI's, to read its calls.
    server: ChatServer,
    /// The first chunk's fields besides its choices: the response's.
    top: Option<Map<String, Value>>,
    message: Map<String, Value>,
    calls: Vec<Call>,
    finish_reason: Option<Value>,
    logprobs: Option<Value>,
    usage: Option<Value>,
}

/// Message fields whose deltas are pieces of one text.
const TEXTS: [&str; 3] = ["content", "refusal", "reasoning_content"];

impl ChatStream {
    /// A reader of the stream of a server of the Chat family.
    pub(crate) fn new(server: ChatServer) -> Self {
        Self {
            server,
            top: None,
            message: Map::new(),
            calls: Vec::new(),
            finish_reason: None,
            logprobs: None,
            usage: None,
        }
    }

    /// Reads a frame; `true` once the stream says it is over.
    fn read_frame(
        &mut self,
        frame: &Frame,
        limit: usize,
        events: &mut Vec<StreamEvent>,
    ) -> Result<bool, String> {
        if frame.data.trim() == "[DONE]" {
            self.complete_all(events)?;
            events.push(StreamEvent::Done);
            return Ok(true);
        }
        let mut chunk = json_object(frame, "a chunk")?;
        if let Some(usage) = chunk.remove("usage").filter(|usage| !usage.is_null()) {
            self.usage = Some(usage);
        }
        let choices = chunk.remove("choices");
        if self.top.is_none() {
            chunk.remove("object");
            self.top = Some(chunk);
        }
        let Some(Value::Array(choices)) = choices else {
            return Ok(false);
        };
        for choice in choices {
            if choice.get("index").and_then(Value::as_u64).unwrap_or(0) != 0 {
                // Only the first choice is a turn (`n` > 1 is not read).
                continue;
            }
            if let Some(delta) = choice.get("delta").and_then(Value::as_object) {
                self.delta(delta, limit, events)?;
            }
            // Kept as the last chunk has it, `null` included, as the
            // whole response writes it.
            if let Some(logprobs) = choice.get("logprobs")
                && (self.logprobs.is_none() || !logprobs.is_null())
            {
                self.logprobs = Some(logprobs.clone());
            }
            if let Some(reason) = choice.get("finish_reason").filter(|r| !r.is_null()) {
                self.finish_reason = Some(reason.clone());
                self.complete_all(events)?;
            }
        }
        Ok(false)
    }

    fn delta(
        &mut self,
        delta: &Map<String, Value>,
        limit: usize,
        events: &mut Vec<StreamEvent>,
    ) -> Result<(), String> {
        for (field, value) in delta {
            match (field.as_str(), value) {
                ("tool_calls", Value::Array(calls)) => {
                    for call in calls {
                        self.call_delta(call, limit, events)?;
                    }
                }
                (text, Value::String(piece)) if TEXTS.contains(&text) => {
                    if text == "content" && !piece.is_empty() {
                        events.push(StreamEvent::Text(piece.clone()));
                    }
                    match self.message.get_mut(text) {
                        Some(Value::String(so_far)) => so_far.push_str(piece),
                        _ => {
                            self.message.insert(text.to_owned(), value.clone());
                        }
                    }
                }
                // A null text before any piece of it: kept, as the
                // whole response has it.
                (text, Value::Null) if TEXTS.contains(&text) => {
                    self.message.entry(text.to_owned()).or_insert(Value::Null);
                }
                _ => {
                    self.message.insert(field.clone(), value.clone());
                }
            }
        }
        Ok(())
    }

    fn call_delta(
        &mut self,
        delta: &Value,
        limit: usize,
        events: &mut Vec<StreamEvent>,
    ) -> Result<(), String> {
        let index = match delta.get("index").and_then(Value::as_u64) {
            Some(index) => {
                usize::try_from(index).map_err(|_| "a call's index is too large".to_owned())?
            }
            // Groq and others that send each call whole may leave it out.
            None => self.calls.len(),
        };
        if index > self.calls.len() {
            return Err(format!(
                "call {index} began before call {}: indices must follow one another",
                self.calls.len()
            ));
        }
        let function = delta.get("function");
        let name = function.and_then(|f| f.get("name")).and_then(Value::as_str);
        if index == self.calls.len() {
            // A new call: the one before is whole if its arguments are.
            if let Some(last) = self.calls.len().checked_sub(1)
                && !self.calls[last].complete
                && serde_json::from_str::<Value>(&self.calls[last].arguments).is_ok()
            {
                self.complete(last, events)?;
            }
            let Some(name) = name else {
                return Err(format!("call {index} began without its function's name"));
            };
            let id = delta.get("id").and_then(Value::as_str).map(str::to_owned);
            if let Some(id) = &id
                && self.calls.iter().any(|call| call.id.as_ref() == Some(id))
            {
                return Err(format!("two calls have the id `{id}`"));
            }
            self.calls.push(Call {
                id: id.clone(),
                kind: delta.get("type").and_then(Value::as_str).map(str::to_owned),
                name: name.to_owned(),
                ..Call::default()
            });
            events.push(StreamEvent::CallStarted {
                index,
                id,
                name: name.to_owned(),
            });
        } else if self.calls[index].complete {
            // Nothing more than blank text may follow a whole call.
            let more = function
                .and_then(|f| f.get("arguments"))
                .and_then(Value::as_str)
                .is_some_and(|piece| !piece.trim().is_empty());
            // Some servers (Qwen's) repeat an empty id and type in every
            // delta of a call: no more than blank text.
            let named = |value: Option<&Value>| {
                value
                    .and_then(Value::as_str)
                    .is_some_and(|text| !text.is_empty())
            };
            if more || named(delta.get("id")) || named(function.and_then(|f| f.get("name"))) {
                return Err(format!("call {index} grew after it was whole"));
            }
            return Ok(());
        }
        let call = &mut self.calls[index];
        if let Some(id) = delta.get("id").and_then(Value::as_str)
            && call.id.is_none()
        {
            call.id = Some(id.to_owned());
        }
        let arguments = function.and_then(|f| f.get("arguments"));
        match arguments {
            Some(Value::String(piece)) if !piece.is_empty() => {
                bounded(index, call.arguments.len() + piece.len(), limit)?;
                call.arguments.push_str(piece);
                let closed = call.closes_with(piece);
                events.push(StreamEvent::ArgumentsDelta {
                    index,
                    delta: piece.clone(),
                });
                // Whole as soon as its last bracket came: its tool may
                // start while the model writes the rest.
                if closed && serde_json::from_str::<Value>(&call.arguments).is_ok() {
                    self.complete(index, events)?;
                }
            }
            // Arguments sent as an object (Ollama's `/v1` may): whole.
            Some(object @ Value::Object(_)) => {
                let text = object.to_string();
                bounded(index, text.len(), limit)?;
                events.push(StreamEvent::ArgumentsDelta {
                    index,
                    delta: text.clone(),
                });
                call.arguments = text;
            }
            _ => {}
        }
        Ok(())
    }

    /// The call at `index` is whole: told as the registry takes it.
    fn complete(&mut self, index: usize, events: &mut Vec<StreamEvent>) -> Result<(), String> {
        let server = self.server;
        let call = &mut self.calls[index];
        call.complete = true;
        let message = json!({"role": "assistant", "tool_calls": [tool_call(call)]});
        let parsed = parse_chat(&server, &json!({"choices": [{"message": message}]}))?;
        if let Some(call) = parsed.into_iter().next() {
            events.push(StreamEvent::CallComplete { index, call });
        }
        Ok(())
    }

    fn complete_all(&mut self, events: &mut Vec<StreamEvent>) -> Result<(), String> {
        for index in 0..self.calls.len() {
            if !self.calls[index].complete {
                self.complete(index, events)?;
            }
        }
        Ok(())
    }

    /// The whole `chat.completion`, as the provider would have sent it.
    fn finish_whole(self, done: bool) -> Result<Value, String> {
        if !done && self.finish_reason.is_none() {
            return Err(
                "the stream ended before the turn did (no `finish_reason`, no `[DONE]`)".to_owned(),
            );
        }
        let mut message = self.message;
        if !self.calls.is_empty() {
            let calls: Vec<Value> = self.calls.iter().map(tool_call).collect();
            message.insert("tool_calls".to_owned(), Value::Array(calls));
        }
        let mut choice = Map::new();
        choice.insert("index".to_owned(), 0.into());
        choice.insert("message".to_owned(), Value::Object(message));
        if let Some(logprobs) = self.logprobs {
            choice.insert("logprobs".to_owned(), logprobs);
        }
        choice.insert(
            "finish_reason".to_owned(),
            self.finish_reason.unwrap_or(Value::Null),
        );
        let mut response = self.top.unwrap_or_default();
        response.insert("object".to_owned(), "chat.completion".into());
        response.insert("choices".to_owned(), json!([choice]));
        if let Some(usage) = self.usage {
            response.insert("usage".to_owned(), usage);
        }
        Ok(Value::Object(response))
    }
}

/// A call as the whole message writes it.
fn tool_call(call: &Call) -> Value {
    let mut value = Map::new();
    if let Some(id) = &call.id {
        value.insert("id".to_owned(), id.clone().into());
    }
    value.insert(
        "type".to_owned(),
        call.kind
            .clone()
            .unwrap_or_else(|| "function".to_owned())
            .into(),
    );
    value.insert(
        "function".to_owned(),
        json!({"name": call.name, "arguments": call.arguments}),
    );
    Value::Object(value)
}

impl ReadStream for ChatStream {
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
}
