//! An independent reading of a recorded stream, written from the
//! providers' documentation and owing nothing to the library's readers:
//! the SSE framing, then per provider the client's tool calls (id, name,
//! arguments as JSON), the model's text, and how the stream ended.

use serde_json::Value;

/// A tool call the application is to run.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Call {
    pub(crate) id: Option<String>,
    pub(crate) name: String,
    pub(crate) arguments: Value,
}

/// How a stream ended.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum End {
    /// The provider said the turn was over.
    Done,
    /// The provider sent an error in the stream.
    Error(String),
    /// The bytes stopped before either.
    Cut,
    /// The turn is over, but a call's arguments are not whole JSON (the
    /// model was stopped inside them): the reader may refuse the stream.
    Unreadable(String),
}

impl Reading {
    /// The same reading, `Unreadable` if the turn is over with a call
    /// whose arguments do not read as JSON.
    pub(crate) fn checked(mut self) -> Self {
        if self.end == End::Done
            && let Some(call) = self.calls.iter().find(|call| {
                matches!(&call.arguments, Value::String(text)
                    if !text.trim().is_empty() && serde_json::from_str::<Value>(text).is_err())
            })
        {
            self.end = End::Unreadable(format!("the arguments of {} are cut short", call.name));
        }
        self
    }
}

/// What a whole stream says.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Reading {
    pub(crate) calls: Vec<Call>,
    /// The model's text (thinking left out), every piece in order.
    pub(crate) text: String,
    /// The text of the whole response, where the stream says it again
    /// whole at the end and the two may differ (a recording whose pieces
    /// were thinned out by its source keeps the whole text).
    pub(crate) final_text: Option<String>,
    pub(crate) end: End,
}

/// One server-sent event: its `event:` name and its `data:` lines joined.
pub(crate) struct Event {
    pub(crate) name: Option<String>,
    pub(crate) data: String,
}

/// The events of an SSE body, as the HTML standard frames them: lines end
/// in CR LF, LF or CR; `data:` lines gather until a blank line; a comment
/// (`:`) is passed over. An event the body ends in without its blank line
/// is still an event: the providers' own SDKs read it so.
pub(crate) fn sse(bytes: &[u8]) -> Vec<Event> {
    let text = String::from_utf8_lossy(bytes);
    let mut events = Vec::new();
    let mut name: Option<String> = None;
    let mut data: Option<String> = None;
    let mut rest = text.as_ref();
    loop {
        let (line, next) = match rest.find(['\r', '\n']) {
            Some(at) => {
                let skip = if rest[at..].starts_with("\r\n") { 2 } else { 1 };
                (&rest[..at], Some(&rest[at + skip..]))
            }
            None => (rest, None),
        };
        if line.is_empty() {
            if let Some(data) = data.take() {
                events.push(Event {
                    name: name.take(),
                    data,
                });
            }
            name = None;
        } else if !line.starts_with(':') {
            let (field, value) = line.split_once(':').unwrap_or((line, ""));
            let value = value.strip_prefix(' ').unwrap_or(value);
            match field {
                "data" => match &mut data {
                    Some(gathered) => {
                        gathered.push('\n');
                        gathered.push_str(value);
                    }
                    None => data = Some(value.to_owned()),
                },
                "event" => name = Some(value.to_owned()),
                _ => {}
            }
        }
        match next {
            Some(next) => rest = next,
            None => break,
        }
    }
    if let Some(data) = data {
        events.push(Event { name, data });
    }
    events
}

/// Each event's data as JSON, the rest (`[DONE]`, blank) passed over.
pub(crate) fn json_events(bytes: &[u8]) -> Vec<(Option<String>, Value)> {
    sse(bytes)
        .into_iter()
        .filter_map(|event| {
            serde_json::from_str(&event.data)
                .ok()
                .map(|data| (event.name, data))
        })
        .collect()
}

/// Arguments as JSON whatever the provider sent them as: JSON text is
/// read (blank text is no arguments, `{}`), an object is itself.
pub(crate) fn normal(arguments: &Value) -> Value {
    match arguments {
        Value::String(text) if text.trim().is_empty() => Value::Object(Default::default()),
        Value::String(text) => serde_json::from_str(text).unwrap_or_else(|_| arguments.clone()),
        Value::Null => Value::Object(Default::default()),
        other => other.clone(),
    }
}

/// A string field, if there.
pub(crate) fn text_at<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}

/// The message of an error object (`{"error": {"message": ..}}` or the
/// error itself), else the whole of it.
pub(crate) fn error_message(error: &Value) -> String {
    let inner = error.get("error").unwrap_or(error);
    text_at(inner, "message")
        .map(str::to_owned)
        .unwrap_or_else(|| inner.to_string())
}
